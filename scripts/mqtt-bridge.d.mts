export declare const DEFAULTS: { port: number; host: string; url: string };

export declare function startBridge(options?: {
  port?: number;
  host?: string;
  url?: string;
  log?: (line: string) => void;
}): Promise<{ port: number; close(): Promise<void> }>;
