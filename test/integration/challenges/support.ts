import { UserChallenges } from "../../../src/challenges/user-challenges";
import { publishChanges } from "../../../src/realtime/publish";
import { Staged } from "../../../src/user/area";
import { Outbox, outboxTables } from "../../../src/wiring/outbox";
import { ADMIN, areaTables, call } from "../helpers";

/** Helpers of the challenge integration tests: configuration through the admin API, players through the API. */

export async function createCategory(appId: string, fields: Record<string, unknown> = {}) {
  const r = await call("POST", `/api/v1/admin/apps/${appId}/challenge-categories`, {
    token: ADMIN,
    body: {
      category_slug: `cat-${Math.random().toString(36).slice(2, 10)}`,
      category_name: { en: "Category", de: "Kategorie" },
      ...fields,
    },
  });
  if (r.status !== 201) throw new Error(`create category: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { category_id: string } & Record<string, any>;
}

export async function createChallenge(appId: string, categoryId: string, fields: Record<string, unknown> = {}) {
  const r = await call("POST", `/api/v1/admin/apps/${appId}/challenges`, {
    token: ADMIN,
    body: challengeBody(categoryId, fields),
  });
  if (r.status !== 201) throw new Error(`create challenge: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { challenge_id: string } & Record<string, any>;
}

export const challengeBody = (categoryId: string, fields: Record<string, unknown> = {}) => ({
  category_id: categoryId,
  challenge_name: { en: "Kill 3 enemies", de: "Besiege 3 Gegner" },
  challenge_description: { en: "Any weapon", de: "Jede Waffe" },
  challenge_goal: 3,
  event_name: "kill-enemy",
  ...fields,
});

const personal = "/api/v1/challenges/personal";

/** The player's view: lists and actions with an access token. */
export function player(appId: string, token: string) {
  const list = (kind: string, query = "") => call("GET", `${personal}/${kind}/${appId}${query}`, { token });
  return {
    all: (query = "") => list("all", query),
    unresolved: (query = "") => list("unresolved", query),
    inProgress: (query = "") => list("get-in-progress-challenges", query),
    get: (query = "") => list("get", query),
    one: (cid: string, query = "") => call("GET", `${personal}/get/${appId}/${cid}${query}`, { token }),
    unlock: (cid: string, method = "GET") => call(method, `${personal}/unlock/${appId}/${cid}`, { token }),
    activate: (cid: string, method = "GET") => call(method, `${personal}/activate/${appId}/${cid}`, { token }),
    cancel: (cid: string, method = "DELETE") => call(method, `${personal}/cancel/${appId}/${cid}`, { token }),
    claim: (cid: string, method = "GET") => call(method, `${personal}/claim/${appId}/${cid}`, { token }),
    /** The challenge as the "all" list shows it, or undefined. */
    async find(cid: string) {
      const r = await list("all");
      if (r.status !== 200) throw new Error(`list: ${r.status} ${JSON.stringify(r.body)}`);
      for (const category of r.body) for (const c of category.challenges) if (c.challenge_id === cid) return c;
      return undefined;
    },
  };
}

/** The challenge part of a user's object whose staged changes go to `env`'s queues at once. */
export function challengesOf(storage: DurableObjectStorage, env: Env) {
  const outbox = new Outbox(areaTables(storage, outboxTables), publishChanges);
  return new UserChallenges({
    sql: areaTables(storage, UserChallenges.tables),
    env,
    async transact(work) {
      const staged = new Staged();
      const result = storage.transactionSync(() => {
        const value = work(staged);
        outbox.stage(staged.changes, staged.background);
        return value;
      });
      await outbox.flush(env);
      return result;
    },
  });
}
