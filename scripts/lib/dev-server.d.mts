export function startDevServer(options: {
  port: number;
  persistTo?: string;
  vars?: Record<string, string>;
  quiet?: boolean;
  config?: string;
  readyPath?: string;
}): Promise<{ url: string; stop: () => Promise<void>; log: () => string }>;
