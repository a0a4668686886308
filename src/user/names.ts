/** The name of the Durable Object of one (app, user): the single writer of that user's progress. */
export const userObjectName = (appId: string, userId: string) => `${appId}:${userId}`;

/** The stub of one user's object; its RPC methods are those of UserDO (src/wiring/user-do.ts). */
export function userObject(env: Env, appId: string, userId: string) {
  return env.USER.get(env.USER.idFromName(userObjectName(appId, userId)));
}
