import { auditStatements, PLAYER_RESOURCE, recordAudit, type Actor, type AuditEntry } from "../apps/audit-log";
import type { ChangeSink } from "../changes/types";
import { notFound } from "../shared/domain-errors";
import { parseId } from "../shared/ids";
import type { Paging } from "../shared/paging";
import { applyChunk, toChanges } from "./apply";
import { appLeaderboards, type LeaderboardDef, type MemberType } from "./catalog";
import type { Contribution } from "./core/contributions";
import { UNRANKED } from "./core/ranking";
import { currentSeason } from "./core/season";
import { deleteFlagStatement, listFlags, presentFlag, readFlag, type FlagRow } from "./flag-repo";
import { deleteMemberScores } from "./maintenance";
import { memberStanding, memberStatement } from "./board-repo";

/**
 * The operator's side of a board's fair play (the admin API and the console call these): the
 * review queue of held submissions, and removing one entry. Each decision is in the audit log, on
 * the member (a player's entries are renamed when the player is erased).
 */

function memberAudit(
  actor: Actor,
  appId: string,
  memberType: MemberType,
  memberId: string,
  action: string,
  before: unknown,
): AuditEntry {
  return {
    actor,
    appId,
    resource: memberType === "user" ? PLAYER_RESOURCE : "team",
    resourceId: memberId,
    action,
    before,
    after: null,
  };
}

async function requireBoardDef(db: D1Database, appId: string, boardId: string): Promise<LeaderboardDef> {
  const board = (await appLeaderboards(db, appId)).boards.find((b) => b.id === boardId);
  if (!board) throw notFound(`Leaderboard ${boardId} not found`);
  return board;
}

async function requireFlag(db: D1Database, board: LeaderboardDef, flagId: string): Promise<FlagRow> {
  const id = parseId(flagId);
  const flag = id === null ? null : await readFlag(db, Number(board.id), id);
  if (!flag) throw notFound(`Flag ${flagId} not found on leaderboard ${board.id}`);
  return flag;
}

/** A page of the board's held submissions, oldest first. */
export async function listFlagged(db: D1Database, appId: string, boardId: string, paging: Paging) {
  const board = await requireBoardDef(db, appId, boardId);
  const { rows, total } = await listFlags(db, Number(board.id), paging);
  return { items: rows.map(presentFlag), ...paging, total };
}

/**
 * Applies a held value as if its event had just arrived: the board's current aggregation and
 * season, through the same apply as every event, and the flag goes in the same transaction. The
 * flag's own dedup key makes a repeated accept apply nothing twice. A banned player's value goes to
 * their hidden rows, as any event of theirs would. Answers the member's standing afterwards.
 */
export async function acceptFlag(
  db: D1Database,
  appId: string,
  boardId: string,
  flagId: string,
  now: number,
  deliver: ChangeSink,
  actor: Actor,
) {
  const board = await requireBoardDef(db, appId, boardId);
  const flag = await requireFlag(db, board, flagId);
  const contribution: Contribution = {
    k: `f:${flag.flag_id}`,
    p: flag.app_id,
    b: flag.leaderboard_id,
    s: currentSeason(board, now),
    t: flag.member_type,
    i: flag.member_id,
    v: flag.value,
    a: now,
    q: 0,
    g: board.aggregation,
    o: board.ascending ? 1 : 0,
    // Erasing a player deletes their flags (src/players/erasure-purge.ts): a flag still here names no erased player.
    e: null,
  };
  const audit = memberAudit(actor, appId, flag.member_type, flag.member_id, "accept-held-score", presentFlag(flag));
  const changed = await applyChunk(db, [contribution], now, new Set([board.id]), [
    deleteFlagStatement(db, flag.flag_id),
    ...auditStatements(db, [audit]),
  ]);
  await deliver(await toChanges(db, new Map([[appId, await appLeaderboards(db, appId)]]), changed));
  return { ...presentFlag(flag), member: await standing(db, board, flag.member_type, flag.member_id, now) };
}

/** Drops a held value: it never counts. */
export async function dismissFlag(
  db: D1Database,
  appId: string,
  boardId: string,
  flagId: string,
  actor: Actor,
): Promise<void> {
  const board = await requireBoardDef(db, appId, boardId);
  const flag = await requireFlag(db, board, flagId);
  const audit = memberAudit(actor, appId, flag.member_type, flag.member_id, "dismiss-held-score", presentFlag(flag));
  await db.batch([deleteFlagStatement(db, flag.flag_id), ...auditStatements(db, [audit])]);
}

/**
 * Removes one member's entry from one board (every season); everybody behind moves up. Nothing
 * stops the member's next event from counting again: a ban does that.
 */
export async function removeEntry(
  db: D1Database,
  appId: string,
  boardId: string,
  memberType: MemberType,
  memberId: string,
  now: number,
  actor: Actor,
): Promise<void> {
  const board = await requireBoardDef(db, appId, boardId);
  const before = { leaderboard_id: board.id, ...(await standing(db, board, memberType, memberId, now)) };
  const removed = await deleteMemberScores(db, [board.id], memberType, memberId);
  if (removed === 0) throw notFound(`No ${memberType} ${memberId} on leaderboard ${board.id}`);
  await recordAudit(db, [memberAudit(actor, appId, memberType, memberId, "remove-score", before)]);
}

/** The member's visible score and rank in the current season (rank -1 without one). */
async function standing(db: D1Database, board: LeaderboardDef, memberType: MemberType, memberId: string, now: number) {
  const slice = { boardId: board.id, season: currentSeason(board, now), memberType };
  const found = memberStanding(await memberStatement(db, slice, memberId).run());
  return found ?? { score: 0, rank: UNRANKED };
}

/**
 * Sets a member's score on a board, in the current season, as an event of a `last` board would:
 * through the same apply as every event, so that the ranks behind move and the same leaderboard
 * webhooks and MQTT messages go out (`deliver`). A banned player's score goes to their hidden row.
 * Answers the member's standing before and after.
 */
export async function setMemberScore(
  db: D1Database,
  appId: string,
  boardId: string,
  memberType: MemberType,
  memberId: string,
  score: number,
  now: number,
  deliver: ChangeSink,
) {
  const board = await requireBoardDef(db, appId, boardId);
  const before = { leaderboard_id: board.id, ...(await standing(db, board, memberType, memberId, now)) };
  const contribution: Contribution = {
    k: `c:${crypto.randomUUID()}`,
    p: Number(appId),
    b: Number(board.id),
    s: currentSeason(board, now),
    t: memberType,
    i: memberId,
    v: score,
    a: now,
    q: 0,
    g: "last",
    o: board.ascending ? 1 : 0,
    e: null,
  };
  const changed = await applyChunk(db, [contribution], now, new Set([board.id]));
  await deliver(await toChanges(db, new Map([[appId, await appLeaderboards(db, appId)]]), changed));
  return { before, after: { leaderboard_id: board.id, ...(await standing(db, board, memberType, memberId, now)) } };
}
