/** The name of the Durable Object of one (app, user): the single writer of that user's progress. */
export const userObjectName = (appId: string, userId: string) => `${appId}:${userId}`;

/** The stub of one user's object; its RPC methods are those of UserDO (src/wiring/user-do.ts). */
export function userObject(env: Env, appId: string, userId: string) {
  return env.USER.get(env.USER.idFromName(userObjectName(appId, userId)));
}

// biome-ignore lint/suspicious/noExplicitAny: any method signature
type Method = (...args: any[]) => unknown;

/** An area's methods as its RPC calls them: the same arguments, the answer as a promise. */
export type AreaCalls<A> = {
  [K in keyof A as A[K] extends Method ? K : never]: A[K] extends (...args: infer P) => infer R
    ? (...args: P) => Promise<Awaited<R>>
    : never;
};

/**
 * One area of a user's object, called over RPC (`UserDO.callArea`): `callUserArea<UserChallenges>(env,
 * appId, userId, "challenges").list(...)`. The object answers only the methods the area's plugin
 * lists as `rpc` (src/kit/area.ts); arguments and answers are copied as every RPC's are.
 */
export function callUserArea<A>(env: Env, appId: string, userId: string, area: string): AreaCalls<A> {
  const stub = userObject(env, appId, userId);
  return new Proxy({} as AreaCalls<A>, {
    get: (_, method) =>
      // Not a promise: awaiting the proxy itself gives the proxy.
      method === "then" || typeof method !== "string"
        ? undefined
        : (...args: unknown[]) => stub.callArea(area, method, args),
  });
}
