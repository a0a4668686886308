export const SCHEMA_PATH: string;
export function readCatalogFile(file: string): unknown;
export function formatCatalog(doc: unknown, file: string, schemaUrl: string): string;
export function writeCatalogFile(file: string, doc: unknown, schemaUrl: string): void;
export function resolveSecrets<T>(doc: T, env: Record<string, string | undefined>): { doc: T; notes: string[] };
export function catalogCall(options: {
  url: string;
  token: string;
  appId: string;
  method: "GET" | "POST" | "PUT";
  suffix?: string;
  query?: Record<string, boolean>;
  body?: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the answer is whatever JSON the service sent
}): Promise<any>;
export interface PlanAnswer {
  applied: boolean;
  summary: { create: number; update: number; delete: number; unmanaged: number; blocked: number };
  changes: {
    action: "create" | "update" | "delete";
    object: string;
    ref: string;
    fields: { field: string; before: unknown; after: unknown }[];
  }[];
  unmanaged: { object: string; ref: string }[];
  blocked: { object: string; ref: string; problem: string }[];
}
export function formatPlan(answer: PlanAnswer, options?: { color?: boolean }): string;
