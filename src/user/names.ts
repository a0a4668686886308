/** The name of the Durable Object of one (app, user): the single writer of that user's progress. */
export const userObjectName = (appId: string, userId: string) => `${appId}:${userId}`;
