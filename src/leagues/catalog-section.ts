import { z } from "@hono/zod-openapi";
import { duplicateKeys, indexBy, type CatalogSection, type CatalogSnapshot } from "../kit/catalog";
import { toIso } from "../shared/clock";
import type { LeagueRow } from "./catalog";
import {
  deleteLeagueStatement,
  insertLeagueStatement,
  leagueColumns,
  presentLeagueRow,
  updateLeagueStatement,
} from "./admin/repo";
import { LeagueFields, leagueRule } from "./admin/schemas";

/**
 * The leagues' section of the catalog document (src/catalog): the admin API's input made strict,
 * a row as the export writes it, and a document object as its export would be once applied.
 * Rewards naming points systems are checked by the points systems' section.
 */
export const CatalogLeague = LeagueFields.strict().superRefine(leagueRule).openapi("CatalogLeague");
export type CatalogLeague = ReturnType<typeof CatalogLeague.parse>;

const FIELDS = Object.keys(LeagueFields.shape);

export function leagueDoc(row: LeagueRow): CatalogLeague {
  const shown = presentLeagueRow(row) as Record<string, unknown>;
  return Object.fromEntries(FIELDS.map((f) => [f, shown[f]])) as CatalogLeague;
}

export const canonicalLeague = (doc: CatalogLeague): CatalogLeague =>
  leagueDoc({ league_id: 0, app_id: 0, created_at: "", updated_at: "", ...leagueColumns(doc) } as LeagueRow);

const leaguesOf = (s: CatalogSnapshot) => s.leagues as LeagueRow[];

export const leaguesCatalogSection: CatalogSection = {
  key: "leagues",
  schema: z.array(CatalogLeague).max(100).default([]),
  objects: {
    league: { resource: "league", label: "league", deletedDoc: (step) => leagueDoc(step.row) },
  },
  reads: (db, appId) => ({
    leagues: db.prepare("SELECT * FROM leagues WHERE app_id = ? ORDER BY league_id").bind(appId),
  }),
  export: (s) => leaguesOf(s).map(leagueDoc),
  plan(p, docs, s) {
    const wanted = docs as CatalogLeague[];
    const rows = indexBy(leaguesOf(s), (row) => row.key);
    const wantedKeys = new Set(wanted.map((l) => l.key));
    for (const league of wanted) {
      const row = rows.get(league.key);
      p.upsert(
        { object: "league", ref: `leagues/${league.key}`, doc: league, row },
        row ? leagueDoc(row) : null,
        canonicalLeague(league),
      );
    }
    for (const row of leaguesOf(s))
      if (!wantedKeys.has(row.key)) p.leftOut({ object: "league", ref: `leagues/${row.key}`, row });
  },
  statement(db, appId, step, now) {
    const nowIso = toIso(now);
    if (step.action === "delete") return deleteLeagueStatement(db, step.row.league_id);
    return step.row
      ? updateLeagueStatement(db, step.row.league_id, step.doc, nowIso)
      : insertLeagueStatement(db, appId, step.doc, nowIso);
  },
  problems: (docs) =>
    duplicateKeys(
      (docs as CatalogLeague[]).map((l, i) => ({ key: l.key, field: `leagues.${i}.key` })),
      "the document's leagues",
    ),
};
