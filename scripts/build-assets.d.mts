export declare const ASSETS_DIR: string;

/** Writes dist-assets/ and src/shared/asset-urls.generated.ts; answers each browser file's URL. */
export declare function buildAssets(): Record<string, string>;
