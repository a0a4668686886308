/** The port is held by another process: nothing was started, and nothing was sent to it. */
export class PortBusyError extends Error {
  port: number;
  constructor(port: number);
}

/** Resolves when `port` can be bound on 127.0.0.1; rejects with PortBusyError when it is held. */
export function assertPortFree(port: number): Promise<void>;

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
  /** With `quiet`: every chunk of the server's output, from its first line on, and its stream. */
  onOutput?: (chunk: string, stream: "stdout" | "stderr") => void;
}): Promise<{ url: string; stop: () => Promise<void>; log: () => string }>;

/** startDevServer on a port free when picked, picked again (a few times) when another process binds it first. */
export function startDevServerOnFreePort(
  options: Omit<Parameters<typeof startDevServer>[0], "port">,
  attempts?: number,
): ReturnType<typeof startDevServer>;
