export const DEMO_CATALOG: string;
export const DEMO_APP: { name: string; default_language: string };
export const DEMO_KEY: { name: string };
export const DEMO_CONSOLE_EMAIL: string;
export function applyDemoCatalog(options: { url: string; adminToken: string; appId: string }): Promise<string>;
