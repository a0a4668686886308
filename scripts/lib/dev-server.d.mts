export function startDevServer(options: {
  port: number;
  persistTo?: string;
  vars?: Record<string, string>;
  quiet?: boolean;
  config?: string;
  /** Another main module for the service's configuration (the benchmark's consumer Worker). */
  entry?: string;
  readyPath?: string;
  /** false: no trace of every invocation for wrangler's Local Explorer (default true). */
  localTraces?: boolean;
}): Promise<{ url: string; stop: () => Promise<void>; log: () => string }>;
