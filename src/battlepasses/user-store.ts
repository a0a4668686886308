import type { AreaTables, AreaSql } from "../shared/object-tables";
import type { PassProgress } from "./core/progress";

/**
 * A user's battle-pass progress in their Durable Object's SQLite. Rows exist only for what
 * happened: an unlocked pass, a level activated by hand or claimed, a challenge an event touched.
 * Everything else (first level, incremental activation, types) is derived by the core.
 */
export const battlePassTables: AreaTables = {
  area: "battlepasses",
  migrations: [
    `CREATE TABLE bp_unlocks (
       battle_pass_id TEXT PRIMARY KEY,
       unlocked_at INTEGER NOT NULL,
       purchase_price REAL NOT NULL,
       purchase_currency TEXT NOT NULL
     );
     CREATE TABLE bp_levels (
       level_id TEXT PRIMARY KEY,
       battle_pass_id TEXT NOT NULL,
       activated_at INTEGER,
       claimed_at INTEGER
     );
     CREATE INDEX bp_levels_by_pass ON bp_levels (battle_pass_id);
     CREATE TABLE bp_challenges (
       challenge_id TEXT PRIMARY KEY,
       battle_pass_id TEXT NOT NULL,
       score INTEGER NOT NULL,
       last_session_id TEXT,
       completed_at INTEGER
     );
     CREATE INDEX bp_challenges_by_pass ON bp_challenges (battle_pass_id);`,
    // Whether D1's holder count of the pass includes this user (0 only for unlocks older than the counts, D1 migration
    // 0010).
    "ALTER TABLE bp_unlocks ADD COLUMN holder_counted INTEGER NOT NULL DEFAULT 0",
  ],
};

interface UnlockRow {
  battle_pass_id: string;
  unlocked_at: number;
  purchase_price: number;
  purchase_currency: string;
  [key: string]: SqlStorageValue;
}

interface LevelRow {
  level_id: string;
  battle_pass_id: string;
  activated_at: number | null;
  claimed_at: number | null;
  [key: string]: SqlStorageValue;
}

interface ChallengeRow {
  challenge_id: string;
  battle_pass_id: string;
  score: number;
  last_session_id: string | null;
  completed_at: number | null;
  [key: string]: SqlStorageValue;
}

export const hasUnlockedPasses = (sql: AreaSql) => sql.exec("SELECT 1 FROM bp_unlocks LIMIT 1").toArray().length > 0;

/** Marks the unlocks not yet in D1's holder counts as counted, and answers their passes. */
export function takeUncountedUnlocks(sql: AreaSql): string[] {
  return sql
    .exec<{ battle_pass_id: string }>(
      "UPDATE bp_unlocks SET holder_counted = 1 WHERE holder_counted = 0 RETURNING battle_pass_id",
    )
    .toArray()
    .map((r) => r.battle_pass_id);
}

/** The passes whose unlock D1's holder counts include. */
export const countedUnlocks = (sql: AreaSql) =>
  sql
    .exec<{ battle_pass_id: string }>("SELECT battle_pass_id FROM bp_unlocks WHERE holder_counted = 1")
    .toArray()
    .map((r) => r.battle_pass_id);

/** Progress of every pass the user unlocked, by battle_pass_id. */
export function readProgress(sql: AreaSql, battlePassId?: string): Record<string, PassProgress> {
  const where = battlePassId === undefined ? "" : " WHERE battle_pass_id = ?";
  const args = battlePassId === undefined ? [] : [battlePassId];
  const passes: Record<string, PassProgress> = {};
  for (const u of sql.exec<UnlockRow>(`SELECT * FROM bp_unlocks${where}`, ...args)) {
    passes[u.battle_pass_id] = {
      unlockedAt: u.unlocked_at,
      purchasePrice: u.purchase_price,
      purchaseCurrency: u.purchase_currency,
      levels: {},
      challenges: {},
    };
  }
  for (const l of sql.exec<LevelRow>(`SELECT * FROM bp_levels${where}`, ...args)) {
    const pass = passes[l.battle_pass_id];
    if (pass) pass.levels[l.level_id] = { activatedAt: l.activated_at, claimedAt: l.claimed_at };
  }
  for (const c of sql.exec<ChallengeRow>(`SELECT * FROM bp_challenges${where}`, ...args)) {
    const pass = passes[c.battle_pass_id];
    if (pass)
      pass.challenges[c.challenge_id] = {
        counter: { score: c.score, lastSessionId: c.last_session_id },
        completedAt: c.completed_at,
      };
  }
  return passes;
}

/** Writes what differs between two states of one pass (the core replaces what it changes). */
export function writeProgress(
  sql: AreaSql,
  battlePassId: string,
  before: PassProgress | null,
  after: PassProgress,
): void {
  if (!before) {
    sql.exec(
      // The unlock's +1 to the holder count is staged with it (UserBattlePasses).
      "INSERT INTO bp_unlocks (battle_pass_id, unlocked_at, purchase_price, purchase_currency, holder_counted) VALUES (?, ?, ?, ?, 1)",
      battlePassId,
      after.unlockedAt,
      after.purchasePrice,
      after.purchaseCurrency,
    );
  }
  for (const [levelId, level] of Object.entries(after.levels)) {
    if (before?.levels[levelId] === level) continue;
    sql.exec(
      `INSERT INTO bp_levels (level_id, battle_pass_id, activated_at, claimed_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (level_id) DO UPDATE SET activated_at = excluded.activated_at, claimed_at = excluded.claimed_at`,
      levelId,
      battlePassId,
      level.activatedAt,
      level.claimedAt,
    );
  }
  for (const [challengeId, challenge] of Object.entries(after.challenges)) {
    if (before?.challenges[challengeId] === challenge) continue;
    sql.exec(
      `INSERT INTO bp_challenges (challenge_id, battle_pass_id, score, last_session_id, completed_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (challenge_id) DO UPDATE SET score = excluded.score, last_session_id = excluded.last_session_id,
         completed_at = excluded.completed_at`,
      challengeId,
      battlePassId,
      challenge.counter.score,
      challenge.counter.lastSessionId,
      challenge.completedAt,
    );
  }
}
