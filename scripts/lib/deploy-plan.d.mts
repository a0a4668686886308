export const REQUIRED_SECRETS: string[];
export interface Resources {
  worker: string;
  d1: { binding: string; name: string; id: string | null }[];
  queues: string[];
  r2: { binding: string; name: string; jurisdiction: string | null }[];
  assets: string | null;
}
export interface AccountHoldings {
  d1: Set<string>;
  queues: Set<string>;
  r2: Set<string>;
  secrets: Set<string>;
}
export interface Plan {
  worker: string;
  createDatabases: string[];
  createQueues: string[];
  createBuckets: { name: string; jurisdiction: string | null }[];
  migrateDatabases: string[];
  generateSecrets: string[];
  assets: string | null;
}
export function resourcesOf(config: unknown): Resources;
export function planDeployment(resources: Resources, account: AccountHoldings): Plan;
export function createsNothing(plan: Plan): boolean;
export function describePlan(resources: Resources, plan: Plan): string[];
