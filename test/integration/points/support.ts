import { ADMIN, call } from "../helpers";

/** Helpers of the points tests: systems through the admin API, reads and writes through the points API. */

export const XP_LEVELS = [
  { level: 1, name: "Rookie", points: 0 },
  { level: 2, name: { en: "Apprentice", de: "Lehrling" }, points: 100 },
  { level: 3, name: "Veteran", points: 500 },
];

export async function createSystem(appId: string, fields: Record<string, unknown>) {
  const r = await call("POST", `/api/v1/admin/apps/${appId}/points-systems`, {
    token: ADMIN,
    body: { name: { en: "Points" }, ...fields },
  });
  if (r.status !== 201) throw new Error(`create points system: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { system_id: string } & Record<string, any>;
}

/** The points API as the studio's backend calls it (API key). */
export function backend(appId: string, apiKey: string) {
  const write = (op: "grant" | "spend", system: string, userId: string, amount: number, key: string, reason = "test") =>
    call("POST", `/api/v1/points/${appId}/${system}/${op}`, {
      token: apiKey,
      body: { user_id: userId, amount, reason, idempotency_key: key },
    });
  return {
    grant: (system: string, userId: string, amount: number, key: string, reason?: string) =>
      write("grant", system, userId, amount, key, reason),
    spend: (system: string, userId: string, amount: number, key: string, reason?: string) =>
      write("spend", system, userId, amount, key, reason),
    balances: async (userId: string) => {
      const r = await call("GET", `/api/v1/points/${appId}?user_id=${encodeURIComponent(userId)}`, { token: apiKey });
      if (r.status !== 200) throw new Error(`balances: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.systems as any[];
    },
    balanceOf: async (userId: string, system: string) => {
      const r = await call("GET", `/api/v1/points/${appId}?user_id=${encodeURIComponent(userId)}`, { token: apiKey });
      return (r.body.systems as any[]).find((s) => s.key === system);
    },
    /** Every entry of the system's ledger, newest first, page by page. */
    ledger: async (userId: string, system: string) => {
      const items: any[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `user_id=${encodeURIComponent(userId)}${cursor ? `&cursor=${cursor}` : ""}`;
        const r = await call("GET", `/api/v1/points/${appId}/${system}/ledger?${query}`, { token: apiKey });
        if (r.status !== 200) throw new Error(`ledger: ${r.status} ${JSON.stringify(r.body)}`);
        items.push(...r.body.items);
        cursor = r.body.next_cursor;
      } while (cursor);
      return items;
    },
  };
}
