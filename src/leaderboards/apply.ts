import { readUserInfos } from "../auth/user-info";
import type { Change, ChangeSink, LeaderboardAudience } from "../changes/types";
import { chunkBy, jsonBytes } from "../shared/chunks";
import { getNow } from "../shared/clock";
import { erasureSubject } from "../apps/erasure-tombstones";
import { appLeaderboards, type AppLeaderboards, type MemberType } from "./catalog";
import { leaderboardChange, type ScoreChange } from "./core/changes";
import { byEventJson, contributionsOf, type Contribution, type QueuedEvent } from "./core/contributions";
import { RECORD_FLAGS_SQL } from "./flag-repo";
import { applyBinds } from "./apply-params";
import { APPLY_RESULT_INDEX, APPLY_SQL } from "./rank-index";

export type { QueuedEvent } from "./core/contributions";

/**
 * Bounds the JSON bound into one transaction: D1 refuses a string value over 1,000,000 bytes. A
 * queue batch of 100 events on 50 boards (about 130 B per contribution) fits in one transaction:
 * each statement's fixed cost is paid once per batch, not once per few boards.
 */
const MAX_JSON_BYTES_PER_TRANSACTION = 900_000;

/**
 * Contributions in chunks within the bound that never split one event: an event is claimed whole
 * or not at all (an event larger than the bound alone goes in a chunk of its own).
 */
function chunksByEvent(contributions: Contribution[]): Contribution[][] {
  // The common case without measuring each: ASCII JSON within the bound (its length is its bytes).
  const json = JSON.stringify(contributions);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: any ASCII character, control characters included
  if (json.length <= MAX_JSON_BYTES_PER_TRANSACTION && /^[\x00-\x7f]*$/.test(json)) return [contributions];
  const events: Contribution[][] = [];
  contributions.forEach((c, i) => {
    if (i > 0 && contributions[i - 1].k === c.k) events[events.length - 1].push(c);
    else events.push([c]);
  });
  // An event's JSON in the array: its contributions' and their separators (jsonBytes counts one per item).
  const bytesOf = (event: Contribution[]) => event.reduce((sum, c) => sum + jsonBytes(c), 0);
  return chunkBy(events, bytesOf, Number.POSITIVE_INFINITY, MAX_JSON_BYTES_PER_TRANSACTION).map((chunk) =>
    chunk.flat(),
  );
}

const playerKey = (appId: string, userId: string) => `${appId}\u0000${userId}`;

/** The erasure subject of every player of the batch (one HMAC each, no I/O). */
async function playerSubjects(env: Env, events: QueuedEvent[]): Promise<Map<string, string>> {
  const players = new Map(events.map(({ event }) => [playerKey(event.appId, event.userId), event] as const));
  const subjects = await Promise.all(
    [...players].map(async ([key, e]) => [key, await erasureSubject(env, e.appId, e.userId)] as const),
  );
  return new Map(subjects);
}

interface ApplyResultRow {
  leaderboard_id: number;
  member_type: MemberType;
  member_id: string;
  old_score: number | null;
  old_rank: number | null;
  new_score: number;
  new_rank: number;
}

/**
 * One D1 transaction: claims the chunk's events, applies what is not held for review, records
 * what is held in the review queue, and runs `also` in the same transaction. Answers the members
 * whose visible score moved on the boards `heard` (the others' ranks are not even computed). A
 * chunk claimed before (a replay) changes nothing.
 */
export async function applyChunk(
  db: D1Database,
  chunk: Contribution[],
  now: number,
  heard: Set<string>,
  also: D1PreparedStatement[] = [],
): Promise<ScoreChange[]> {
  // Each statement parses only the JSON it reads: the claims their keys, the review queue what is held.
  const applied = chunk.filter((c) => c.h === undefined);
  const held = chunk.filter((c) => c.h !== undefined);
  const keys = [...new Set(chunk.map((c) => c.k))];
  const values = {
    contributions: byEventJson(applied),
    claim: crypto.randomUUID(),
    now,
    eventKeys: JSON.stringify(keys),
    held: JSON.stringify(held),
    heardBoards: JSON.stringify([...heard].map(Number)),
  };
  const statements = [...APPLY_SQL, RECORD_FLAGS_SQL].map((sql) => db.prepare(sql).bind(...applyBinds(sql, values)));
  const results = await db.batch([...statements, ...also]);
  return (results[APPLY_RESULT_INDEX].results as ApplyResultRow[]).map((row) => ({
    boardId: String(row.leaderboard_id),
    memberType: row.member_type,
    memberId: row.member_id,
    oldScore: row.old_score,
    oldRank: row.old_rank,
    newScore: row.new_score,
    newRank: row.new_rank,
  }));
}

/**
 * Applies accepted events to the leaderboards, off the request path (called by the background
 * queue consumer with each batch). Each chunk is one D1 transaction that claims its events, so a
 * redelivered batch, or the same event_id resent in another message, is not counted twice for
 * 24 hours (see maintenance.ts); `max`, `min` and `last` are idempotent anyway. Then one change
 * per member whose score moved on a board of the `audience` is handed to `deliver`; a replay sends
 * none again.
 */
export async function applyLeaderboardEvents(
  env: Env,
  events: QueuedEvent[],
  deliver: ChangeSink,
  audience: LeaderboardAudience,
): Promise<void> {
  if (events.length === 0) return;
  const catalogs = new Map<string, AppLeaderboards>();
  for (const appId of new Set(events.map((e) => e.event.appId)))
    catalogs.set(appId, await appLeaderboards(env.DB, appId));
  const subjects = await playerSubjects(env, events);
  const contributions = contributionsOf(
    events,
    (appId) => catalogs.get(appId)?.boards ?? [],
    (e) => subjects.get(playerKey(e.appId, e.userId))!,
  );
  if (contributions.length === 0) return;

  const now = await getNow(env);
  const heard = await heardBoards(contributions, audience);
  const changed: ScoreChange[] = [];
  for (const chunk of chunksByEvent(contributions)) changed.push(...(await applyChunk(env.DB, chunk, now, heard)));
  await deliver(await toChanges(env.DB, catalogs, changed));
}

/** The boards of the contributions whose changes somebody receives, every app's. */
async function heardBoards(contributions: Contribution[], audience: LeaderboardAudience): Promise<Set<string>> {
  const byApp = new Map<string, Set<string>>();
  for (const c of contributions) {
    const boards = byApp.get(String(c.p)) ?? new Set<string>();
    byApp.set(String(c.p), boards.add(String(c.b)));
  }
  const heard = await Promise.all([...byApp].map(([appId, boards]) => audience(appId, [...boards])));
  return new Set(heard.flatMap((boards) => [...boards]));
}

/** The leaderboard changes of the members whose score moved, with their user info. */
export async function toChanges(
  db: D1Database,
  catalogs: Map<string, AppLeaderboards>,
  changed: ScoreChange[],
): Promise<Change[]> {
  const changes: Change[] = [];
  for (const [appId, catalog] of catalogs) {
    const boards = new Map(catalog.boards.map((b) => [b.id, b]));
    const mine = changed.filter((c) => boards.has(c.boardId));
    if (mine.length === 0) continue;
    const userIds = [...new Set(mine.filter((c) => c.memberType === "user").map((c) => c.memberId))];
    const infos = await readUserInfos(db, appId, userIds);
    for (const c of mine) {
      const info = c.memberType === "user" ? (infos.get(c.memberId) ?? null) : null;
      changes.push(leaderboardChange(boards.get(c.boardId)!, catalog.defaultLanguage, c, info));
    }
  }
  return changes;
}
