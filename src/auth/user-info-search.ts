import { pageOffset, type Paging } from "../shared/paging";

/** Users of an app whose id or username contains `search`, among those that stored user info (the console's player search). */
export async function searchUserInfos(db: D1Database, appId: number, search: string, paging: Paging) {
  const where = "app_id = ?1 AND (instr(lower(user_id), lower(?2)) > 0 OR instr(lower(COALESCE(username, '')), lower(?2)) > 0)";
  const [rows, total] = await db.batch<unknown>([
    db
      .prepare(`SELECT user_id, username, updated_at FROM user_info WHERE ${where} ORDER BY user_id LIMIT ?3 OFFSET ?4`)
      .bind(appId, search, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT COUNT(*) AS n FROM user_info WHERE ${where}`).bind(appId, search),
  ]);
  return {
    rows: rows.results as { user_id: string; username: string | null; updated_at: string }[],
    total: (total.results[0] as { n: number }).n,
  };
}
