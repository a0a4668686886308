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
  /** With `quiet`: every chunk of the server's output, from its first line on. */
  onOutput?: (chunk: string) => void;
}): Promise<{ url: string; stop: () => Promise<void>; log: () => string }>;
