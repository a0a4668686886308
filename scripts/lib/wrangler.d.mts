import type { ChildProcess, SpawnOptions } from "node:child_process";
export const projectRoot: string;
export function spawnWrangler(args: string[], options?: SpawnOptions): ChildProcess;
export function runWrangler(args: string[], options?: SpawnOptions): Promise<string>;
