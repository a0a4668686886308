export function findChromium(): { path: string; source: string } | { path: null; reason: string };
export function chromiumVersion(path: string): string;
export const CHROMIUM_ARGS: string[];
