import { z } from "@hono/zod-openapi";

import { duplicateKeys, fieldsOf, indexBy, pick, type CatalogSection, type CatalogSnapshot } from "../kit/catalog";

import { toIso } from "../shared/clock";

import { ConfigKey } from "../shared/schemas";

import { boardColumns, deleteBoardStatement, insertBoardStatement, updateBoardStatement } from "./admin/repo";

import { LeaderboardFields, LeaderboardInput, RANKS_SOMETHING, boardRule } from "./admin/schemas";

import { toDef, type LeaderboardRow } from "./catalog";

import { presentAdmin } from "./core/present";

/** The leaderboards of the catalog document, by key. */

export const CatalogLeaderboard = LeaderboardFields.extend({
  key: ConfigKey.openapi({ description: "Unique in the app" }),
})
  .strict()
  .superRefine(boardRule)
  .refine(...RANKS_SOMETHING)
  .openapi("CatalogLeaderboard");

export type CatalogLeaderboard = z.infer<typeof CatalogLeaderboard>;

const BOARD_FIELDS = fieldsOf(LeaderboardInput.shape, "key");

/** A board without a reset schedule stores no reset time or zone: the document leaves them out. */
export function boardDoc(row: LeaderboardRow, now: number): CatalogLeaderboard {
  const doc: Record<string, unknown> = { key: row.key, ...pick(presentAdmin(toDef(row), now), BOARD_FIELDS) };
  if (doc.period_range_reset_at_time === null) delete doc.period_range_reset_at_time;
  if (doc.period_range_time_zone === null) delete doc.period_range_time_zone;
  // A board ranks events or a points system: the document names the one it ranks.
  if (doc.points_system === undefined) delete doc.points_system;
  else delete doc.event_name;
  return doc as CatalogLeaderboard;
}

const canonicalBoard = (doc: CatalogLeaderboard, now: number): CatalogLeaderboard =>
  boardDoc(
    {
      leaderboard_id: 0,
      app_id: 0,
      key: doc.key,
      season_origin: now,
      created_at: "",
      updated_at: "",
      ...boardColumns(doc),
    } as LeaderboardRow,
    now,
  );

const boardsOf = (s: CatalogSnapshot) => s.leaderboards as LeaderboardRow[];

export const leaderboardCatalogSection: CatalogSection = {
  key: "leaderboards",
  schema: z.array(CatalogLeaderboard).max(1000).default([]),
  objects: {
    leaderboard: { resource: "leaderboard", label: "leaderboard", deletedDoc: (step, now) => boardDoc(step.row, now) },
  },
  reads: (db, appId) => ({
    leaderboards: db.prepare("SELECT * FROM leaderboards WHERE app_id = ? ORDER BY leaderboard_id").bind(appId),
  }),
  export: (s, now) => boardsOf(s).map((row) => boardDoc(row, now)),
  plan(p, docs, s) {
    const wanted = docs as CatalogLeaderboard[];
    const boards = indexBy(boardsOf(s), (b) => b.key);
    const wantedKeys = new Set(wanted.map((b) => b.key));
    for (const board of wanted) {
      const row = boards.get(board.key);
      p.upsert(
        { object: "leaderboard", ref: `leaderboards/${board.key}`, doc: board, row },
        row ? boardDoc(row, p.now) : null,
        canonicalBoard(board, p.now),
      );
    }
    for (const row of boardsOf(s))
      if (!wantedKeys.has(row.key)) p.leftOut({ object: "leaderboard", ref: `leaderboards/${row.key}`, row });
  },
  statement(db, appId, step, now) {
    const nowIso = toIso(now);
    if (step.action === "delete") return deleteBoardStatement(db, step.row.leaderboard_id);
    return step.row
      ? updateBoardStatement(db, step.row, step.doc, now, nowIso)
      : insertBoardStatement(db, appId, step.doc, now, nowIso);
  },
  problems: (docs) =>
    duplicateKeys(
      (docs as CatalogLeaderboard[]).map((b, i) => ({ key: b.key, field: `leaderboards.${i}.key` })),
      "the document's leaderboards",
    ),
};
