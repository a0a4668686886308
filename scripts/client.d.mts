export const GENERATED_DIR: string;
/** The generated files of packages/client/src/generated (file name -> text) for an OpenAPI document. */
export function generateClient(document: unknown): Promise<Record<string, string>>;
