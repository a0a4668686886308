import { keySql, LEVELS, RADIX_BITS } from "./core/rank-key";
import { erasedSinceSql } from "../apps/erasure-tombstones";
import { APPLY_PARAMS } from "./apply-params";

/**
 * SQL of the rank index (tables in migrations/0004_leaderboards.sql).
 *
 * A `COUNT(*) WHERE score > ?` costs time in proportion to the members ahead, and `OFFSET` in
 * proportion to the page's depth. Instead, `leaderboard_rank_counts` is a sparse radix tree of
 * member counts over `rank_key` (7 levels, 256-way): level L counts members per `rank_key >> 8L`.
 *
 * - Members ahead of a key: on each level, the sum over the key's lower siblings, at most 255
 *   rows per level found by one primary-key range each, whatever the board's size (AHEAD).
 * - The member at any 0-based position: descend from the top level, keeping the running count
 *   of members ahead (PAGE). The page is then read by keyset from that member on.
 * - A score change moves one count per level from the old key to the new one.
 *
 * The one cost that still grows with the data: positions inside one group of equal scores are
 * found by walking that group in member-id order, so a page deep inside a tie of 100k members
 * walks up to 100k index entries (boards of distinct scores never do).
 */

export const LEVELS_CTE = `rank_levels(level, shift) AS (VALUES ${Array.from(
  { length: LEVELS },
  (_, level) => `(${level}, ${level * RADIX_BITS})`,
).join(", ")})`;
const FANOUT = 2 ** RADIX_BITS;

/** Members of (board, season, type) with a key lower than `key` (all SQL expressions). Needs LEVELS_CTE. */
const aheadSql = (board: string, season: string, type: string, key: string) => `(
  SELECT COALESCE(SUM(rc.n), 0) FROM rank_levels lv JOIN leaderboard_rank_counts rc
    ON rc.leaderboard_id = ${board} AND rc.season = ${season} AND rc.member_type = ${type} AND rc.level = lv.level
   AND rc.node >= (((${key}) >> lv.shift) >> ${RADIX_BITS}) << ${RADIX_BITS} AND rc.node < ((${key}) >> lv.shift))`;

/**
 * One page: ?1 board, ?2 season, ?3 member type, ?4 0-based offset, ?5 limit. Answers the rows
 * (member_id, score, rank_key) in board order and, on each, `ahead`: the members strictly better
 * than the first row. No rows when the offset is past the end.
 */
export const PAGE_SQL = (() => {
  const ctes = ["top(node, acc) AS (SELECT 0, 0)"];
  let parent = "top";
  for (let level = LEVELS - 1; level >= 0; level--) {
    // The parent's bounds as scalar subqueries, not a join: the planner must not make the counts
    // the outer loop, or it scans the whole level instead of the parent's 256 children.
    ctes.push(`l${level} AS (
      SELECT c.node, c.n, (SELECT acc FROM ${parent}) + SUM(c.n) OVER (ORDER BY c.node ROWS UNBOUNDED PRECEDING) - c.n AS before
      FROM leaderboard_rank_counts c
      WHERE c.leaderboard_id = ?1 AND c.season = ?2 AND c.member_type = ?3 AND c.level = ${level}
        AND c.node BETWEEN (SELECT node FROM ${parent}) * ${FANOUT} AND (SELECT node FROM ${parent}) * ${FANOUT} + ${FANOUT - 1})`);
    ctes.push(`p${level} AS (SELECT node, before AS acc FROM l${level} WHERE before <= ?4 AND before + n > ?4)`);
    parent = `p${level}`;
  }
  // p0: the key of the member at the offset and the members ahead of that key. The member is the
  // (offset - ahead)th of its group of equal keys, in member-id order.
  ctes.push(`anchor AS (
    SELECT s.rank_key, s.member_id FROM leaderboard_scores s
    WHERE s.leaderboard_id = ?1 AND s.season = ?2 AND s.member_type = ?3 AND s.rank_key = (SELECT node FROM p0)
    ORDER BY s.rank_key, s.member_id LIMIT 1 OFFSET COALESCE((SELECT CAST(?4 AS INTEGER) - acc FROM p0), 0))`);
  return `WITH ${ctes.join(",\n")}
    SELECT s.member_id, s.score, s.rank_key, (SELECT acc FROM p0) AS ahead FROM leaderboard_scores s
    WHERE s.leaderboard_id = ?1 AND s.season = ?2 AND s.member_type = ?3
      AND (s.rank_key, s.member_id) >= (SELECT rank_key, member_id FROM anchor)
    ORDER BY s.rank_key, s.member_id LIMIT CAST(?5 AS INTEGER)`;
})();

/**
 * One member: ?1 board, ?2 season, ?3 member type, ?4 member id. Answers score, `ahead` (members
 * strictly better) and `tied_before` (equal scores listed before this member: its position is
 * ahead + tied_before), or no row.
 */
export const MEMBER_SQL = `WITH ${LEVELS_CTE},
  me AS (SELECT score, rank_key FROM leaderboard_scores WHERE leaderboard_id = ?1 AND member_type = ?3 AND member_id = ?4 AND season = ?2)
  SELECT me.score, ${aheadSql("?1", "?2", "?3", "me.rank_key")} AS ahead,
    (SELECT COUNT(*) FROM leaderboard_scores x
      WHERE x.leaderboard_id = ?1 AND x.season = ?2 AND x.member_type = ?3 AND x.rank_key = me.rank_key AND x.member_id < ?4) AS tied_before
  FROM me`;

/** MEMBER_SQL without the walk over equal scores, for rank-only reads. */
export const MEMBER_RANK_SQL = `WITH ${LEVELS_CTE},
  me AS (SELECT score, rank_key FROM leaderboard_scores WHERE leaderboard_id = ?1 AND member_type = ?3 AND member_id = ?4 AND season = ?2)
  SELECT me.score, ${aheadSql("?1", "?2", "?3", "me.rank_key")} AS ahead FROM me`;

/** Members per type of one season: ?1 board, ?2 season. The top level has at most 64 nodes. */
export const COUNTS_SQL = `SELECT member_type, SUM(n) AS n FROM leaderboard_rank_counts
  WHERE leaderboard_id = ?1 AND season = ?2 AND member_type IN ('user', 'team') AND level = ${LEVELS - 1}
  GROUP BY member_type`;

/** Adds `d` to every node of `moves` (b, s, t, level, node, d), in one upsert. */
const countNodeMovesSql = (moves: string) => `WITH ${LEVELS_CTE}, moves(b, s, t, level, node, d) AS (${moves})
  INSERT INTO leaderboard_rank_counts (leaderboard_id, season, member_type, level, node, n)
  SELECT b, s, t, level, node, SUM(d) FROM moves WHERE true
  GROUP BY b, s, t, level, node HAVING SUM(d) <> 0
  ON CONFLICT (leaderboard_id, season, member_type, level, node) DO UPDATE SET n = n + excluded.n`;

/** Adds `d` for every key of `moves` (b, s, t, k, d) at every level, in one upsert. */
const countMovesSql = (moves: string) =>
  countNodeMovesSql(
    `WITH keyed(b, s, t, k, d) AS (${moves}) SELECT b, s, t, lv.level, k >> lv.shift, d FROM keyed, rank_levels lv`,
  );

/** Removes nodes that reached zero among `nodes` (b, s, t, level, node), keeping the tree sparse. */
const dropEmptyNodesAtSql = (nodes: string) => `WITH ${LEVELS_CTE}
  DELETE FROM leaderboard_rank_counts WHERE n <= 0
    AND (leaderboard_id, season, member_type, level, node) IN (${nodes})`;

/** Removes nodes that reached zero among the nodes of `keys` (b, s, t, k), keeping the tree sparse. */
const dropEmptyNodesSql = (keys: string) =>
  dropEmptyNodesAtSql(
    `WITH keyed(b, s, t, k) AS (${keys}) SELECT b, s, t, lv.level, k >> lv.shift FROM keyed, rank_levels lv`,
  );

/**
 * The nodes the batch's members left (`old`) or entered (`new`): only on the levels where the old
 * key's node and the new key's differ. A small move changes the lowest levels; the levels above
 * count the member before and after alike and are not touched at all.
 */
const movedNodesSql = (side: "old" | "new") => `
  SELECT x.leaderboard_id, x.season, x.member_type, lv.level, x.${side}_key >> lv.shift
  FROM leaderboard_apply_scratch x, rank_levels lv
  WHERE ${side === "new" ? "x.old_key IS NULL OR " : ""}(x.old_key >> lv.shift) <> (x.new_key >> lv.shift)`;

/**
 * Applying a batch of contributions (core/contributions.ts) as one D1 transaction, with the binds
 * of APPLY_PARAMS (apply-params.ts; the review queue's statement in flag-store.ts shares them).
 *
 * 1. Claim the batch's events; an event claimed before (a replay) is left out of everything after.
 * 2. Fold each member's contributions per aggregation into the scratch table, with the old score
 *    and the new score and key, and on the heard boards the old rank (before any count moves): a
 *    rank walks the count tree, worth it only where somebody receives it. The contributions of a
 *    banned player go to their hidden rows (SYNC_BANNED_MEMBER_SQL), read in this same
 *    transaction, so that no event in flight when the ban came puts them back. A player erased
 *    after the event was received gets nothing (their team keeps its part).
 * 3-4. Move the counts of changed members from the old key to the new one.
 * 5-6. Write the scores and register the season for cron.
 * 7. Answer the changed visible members of the heard boards with old and new score and rank (the
 *    change hook's payload).
 * 8. Empty the scratch table.
 */
const { contributions, claim, now, eventKeys, heardBoards } = APPLY_PARAMS;
export const APPLY_SQL: readonly string[] = [
  `INSERT INTO leaderboard_applied_events (dedup_key, claim, applied_at)
   SELECT value, ${claim}, ${now} FROM json_each(${eventKeys}) WHERE true
   ON CONFLICT (dedup_key) DO NOTHING`,

  // The positions read from the JSON are byEventJson's: an event [dedup key, app id, received_at,
  // batch position, erasure subject, user id, rows], a row [board, season, member type, member id,
  // amount, aggregation, ascending].
  `WITH ${LEVELS_CTE},
   -- Each event claimed by this transaction, once: whether its player is banned, and whether they
   -- were erased after it was received (their rows then bring nothing; a team keeps its part).
   -- Materialized: each field is taken out of the JSON once, not at each use.
   claimed AS MATERIALIZED (
     SELECT value ->> 2 AS received_at, value ->> 3 AS batch_position, value -> 6 AS rows,
       EXISTS (SELECT 1 FROM player_bans x WHERE x.app_id = value ->> 1 AND x.user_id = value ->> 5) AS banned,
       value ->> 4 IS NOT NULL AND ${erasedSinceSql("value ->> 4", "value ->> 2")} AS erased
     FROM json_each(${contributions})
     JOIN leaderboard_applied_events e ON e.dedup_key = value ->> 0 AND e.claim = ${claim}),
   contribution AS MATERIALIZED (
     SELECT r.value ->> 0 AS board_id, r.value ->> 2 AS member_type, r.value ->> 3 AS member_id,
       CASE WHEN r.value ->> 2 = 'user' AND claimed.banned THEN -(r.value ->> 1) ELSE r.value ->> 1 END AS season,
       r.value ->> 4 AS amount, claimed.received_at, claimed.batch_position,
       r.value ->> 5 AS aggregation, r.value ->> 6 AS ascending
     FROM claimed, json_each(claimed.rows) r WHERE r.value ->> 2 <> 'user' OR NOT claimed.erased),
   ordered AS (
     SELECT contribution.*, ROW_NUMBER() OVER (
       PARTITION BY board_id, season, member_type, member_id ORDER BY received_at DESC, batch_position DESC) AS newest
     FROM contribution),
   folded AS (
     SELECT board_id, season, member_type, member_id, MAX(aggregation) AS aggregation, MAX(ascending) AS ascending,
       SUM(amount) AS total, MAX(amount) AS highest, MIN(amount) AS lowest,
       MAX(CASE WHEN newest = 1 THEN amount END) AS last_amount, MAX(received_at) AS last_at
     FROM ordered GROUP BY board_id, season, member_type, member_id),
   next AS (
     SELECT f.*, cur.score AS old_score, cur.rank_key AS old_key, cur.last_at AS old_last_at,
       MIN(MAX(CASE
         WHEN cur.score IS NULL THEN (CASE f.aggregation
           WHEN 'sum' THEN f.total WHEN 'max' THEN f.highest WHEN 'min' THEN f.lowest ELSE f.last_amount END)
         WHEN f.aggregation = 'sum' THEN cur.score + f.total
         WHEN f.aggregation = 'max' THEN MAX(cur.score, f.highest)
         WHEN f.aggregation = 'min' THEN MIN(cur.score, f.lowest)
         WHEN f.last_at >= cur.last_at THEN f.last_amount
         ELSE cur.score END, -${Number.MAX_SAFE_INTEGER}), ${Number.MAX_SAFE_INTEGER}) AS new_score
     FROM folded f LEFT JOIN leaderboard_scores cur
       ON cur.leaderboard_id = f.board_id AND cur.member_type = f.member_type AND cur.member_id = f.member_id
      AND cur.season = f.season)
   INSERT INTO leaderboard_apply_scratch (leaderboard_id, season, member_type, member_id, old_score, old_key,
     old_rank, old_last_at, new_score, new_key, new_last_at)
   SELECT board_id, season, member_type, member_id, old_score, old_key,
     CASE WHEN old_key IS NULL OR board_id NOT IN (SELECT value FROM json_each(${heardBoards})) THEN NULL
       ELSE 1 + ${aheadSql("next.board_id", "next.season", "next.member_type", "next.old_key")} END,
     old_last_at, new_score, ${keySql("new_score", "ascending")}, MAX(COALESCE(old_last_at, 0), last_at)
   FROM next WHERE true`,

  countNodeMovesSql(`SELECT *, -1 FROM (${movedNodesSql("old")}) UNION ALL SELECT *, 1 FROM (${movedNodesSql("new")})`),

  dropEmptyNodesAtSql(movedNodesSql("old")),

  `INSERT INTO leaderboard_scores (leaderboard_id, member_type, member_id, season, score, rank_key, last_at)
   SELECT leaderboard_id, member_type, member_id, season, new_score, new_key, new_last_at FROM leaderboard_apply_scratch
   WHERE old_key IS NULL OR old_key <> new_key OR old_last_at <> new_last_at
   ON CONFLICT (leaderboard_id, member_type, member_id, season)
   DO UPDATE SET score = excluded.score, rank_key = excluded.rank_key, last_at = excluded.last_at`,

  `INSERT INTO leaderboard_seasons (leaderboard_id, season)
   SELECT DISTINCT leaderboard_id, season FROM leaderboard_apply_scratch WHERE true
   ON CONFLICT (leaderboard_id, season) DO NOTHING`,

  `WITH ${LEVELS_CTE}
   SELECT leaderboard_id, season, member_type, member_id, old_score, old_rank, new_score,
     1 + ${aheadSql("x.leaderboard_id", "x.season", "x.member_type", "x.new_key")} AS new_rank
   FROM leaderboard_apply_scratch x WHERE (old_score IS NULL OR old_score <> new_score) AND season > 0
     AND leaderboard_id IN (SELECT value FROM json_each(${heardBoards}))`,

  `DELETE FROM leaderboard_apply_scratch`,
];
export const APPLY_RESULT_INDEX = 6;

/**
 * Removing one member from boards, in every season: ?1 JSON array of board ids, ?2 member type,
 * ?3 member id. Counts first (they read the rows), then the rows.
 */
const memberRows = `SELECT leaderboard_id, season, member_type, rank_key FROM leaderboard_scores
  WHERE leaderboard_id IN (SELECT value FROM json_each(?1)) AND member_type = ?2 AND member_id = ?3`;
export const DELETE_MEMBER_SQL: readonly string[] = [
  countMovesSql(`SELECT leaderboard_id, season, member_type, rank_key, -1 FROM (${memberRows})`),
  dropEmptyNodesSql(memberRows),
  `DELETE FROM leaderboard_scores WHERE leaderboard_id IN (SELECT value FROM json_each(?1)) AND member_type = ?2 AND member_id = ?3`,
];

/**
 * A banned player is hidden from every board of the app while their scores are kept, and shown
 * again with the same scores once the ban is lifted: ?1 app id, ?2 user id. These statements move
 * the player's rows to the side the `player_bans` table says (run them in the transaction that
 * bans or lifts). A hidden row lives under its season negated: no read ever asks for a negative
 * season, so reads need no change and cost the same, and since the counts move with the rows,
 * the ranks behind close up (and open again) exactly. Counts first (they read the rows), then the
 * rows. Applying (APPLY_SQL) sends a banned player's contributions to the hidden rows.
 */
const banSide = "(CASE WHEN EXISTS (SELECT 1 FROM player_bans WHERE app_id = ?1 AND user_id = ?2) THEN 1 ELSE -1 END)";
const wrongSide = `leaderboard_id IN (SELECT leaderboard_id FROM leaderboards WHERE app_id = ?1) AND member_type = 'user' AND member_id = ?2
  AND season * ${banSide} > 0`;
const misplacedRows = `SELECT leaderboard_id, season, member_type, rank_key FROM leaderboard_scores WHERE ${wrongSide}`;
export const SYNC_BANNED_MEMBER_SQL: readonly string[] = [
  countMovesSql(`
    SELECT leaderboard_id, season, member_type, rank_key, -1 FROM (${misplacedRows})
    UNION ALL
    SELECT leaderboard_id, -season, member_type, rank_key, 1 FROM (${misplacedRows})`),
  dropEmptyNodesSql(misplacedRows),
  `INSERT INTO leaderboard_seasons (leaderboard_id, season) SELECT DISTINCT leaderboard_id, -season FROM (${misplacedRows}) WHERE true
   ON CONFLICT (leaderboard_id, season) DO NOTHING`,
  `UPDATE leaderboard_scores SET season = -season WHERE ${wrongSide}`,
];

/** Deleting up to ?3 rows of a past season or a deleted board: ?1 board, ?2 season. */
export const PURGE_SEASON_SQL: readonly string[] = [
  `DELETE FROM leaderboard_scores WHERE (leaderboard_id, member_type, member_id, season) IN (
     SELECT leaderboard_id, member_type, member_id, season FROM leaderboard_scores WHERE leaderboard_id = ?1 AND season = ?2 LIMIT CAST(?3 AS INTEGER))`,
  `DELETE FROM leaderboard_rank_counts WHERE (leaderboard_id, season, member_type, level, node) IN (
     SELECT leaderboard_id, season, member_type, level, node FROM leaderboard_rank_counts WHERE leaderboard_id = ?1 AND season = ?2 LIMIT CAST(?3 AS INTEGER))`,
];
