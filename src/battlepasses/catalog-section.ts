import { parsePointsRewards } from "../apps/points-rewards";
import { z } from "@hono/zod-openapi";

import {
  byId,
  countingChanges,
  duplicateKeys,
  fieldsOf,
  indexBy,
  pick,
  usersWord,
  type CatalogPlanner,
  type CatalogSection,
  type CatalogSnapshot,
  type Step,
} from "../kit/catalog";

import { webhookUrlProblem } from "../rules/webhook-url";

import { toIso } from "../shared/clock";

import type { FieldProblem } from "../shared/domain-errors";

import { ConfigKey } from "../shared/schemas";

import {
  deleteLevelChallengeStatement,
  deleteLevelStatement,
  deletePassStatement,
  insertLevelChallengeStatement,
  insertLevelStatement,
  insertPassStatement,
  levelByKey,
  levelChallengeColumns,
  levelColumns,
  passByKey,
  passColumns,
  presentChallengeAdmin,
  presentLevelAdmin,
  presentPassAdmin,
  updateLevelChallengeStatement,
  updateLevelStatement,
  updatePassStatement,
} from "./admin/repo";

import {
  BattlePassFields,
  LevelChallengeInput,
  LevelFields,
  MAX_CHALLENGES_PER_LEVEL,
  passRule,
} from "./admin/schemas";

import {
  LEVEL_ORDER,
  PASS_ORDER,
  toCatalogChallenge,
  type ChallengeRow as LevelChallengeRow,
  type LevelRow,
  type PassRow,
} from "./catalog";

/** The battle passes of the catalog document: passes with their levels and level challenges, by key. */

export const CatalogLevelChallenge = LevelChallengeInput.omit({ challenge_id: true })
  .extend({
    key: ConfigKey.openapi({
      description: "Unique in its level; users keep their progress in a challenge whose key stays",
    }),
  })
  .strict()
  .openapi("CatalogLevelChallenge");

export const CatalogLevel = LevelFields.omit({ challenges: true })
  .extend({
    key: ConfigKey.openapi({ description: "Unique in its battle pass" }),
    challenges: z.array(CatalogLevelChallenge).min(1).max(MAX_CHALLENGES_PER_LEVEL),
  })
  .strict()
  .openapi("CatalogLevel");

export const CatalogBattlePass = BattlePassFields.extend({
  key: ConfigKey.openapi({ description: "Unique in the app" }),
  levels: z.array(CatalogLevel).max(1000).default([]),
})
  .strict()
  .superRefine(passRule)
  .openapi("CatalogBattlePass");

export type CatalogBattlePass = z.infer<typeof CatalogBattlePass>;
export type CatalogLevel = z.infer<typeof CatalogLevel>;
export type CatalogLevelChallenge = z.infer<typeof CatalogLevelChallenge>;

interface PassesSnapshot extends CatalogSnapshot {
  passes: PassRow[];
  levels: LevelRow[];
  levelChallenges: LevelChallengeRow[];
}

// ---- rows to document objects, and a document object to what its export would be once applied

const PASS_FIELDS = fieldsOf(BattlePassFields.shape);
const LEVEL_FIELDS = fieldsOf(LevelFields.shape, "challenges");
const LEVEL_CHALLENGE_FIELDS = fieldsOf(LevelChallengeInput.shape, "challenge_id", "key");

export const levelChallengeDoc = (row: LevelChallengeRow) =>
  ({
    key: row.key,
    ...pick(presentChallengeAdmin(toCatalogChallenge(row)), LEVEL_CHALLENGE_FIELDS),
  }) as CatalogLevelChallenge;

/**
 * A reward_type_name that is the default for the level's reward type (which may be none the input takes) is left out.
 */
export function levelDoc(row: LevelRow, challenges: CatalogLevelChallenge[]): CatalogLevel {
  const doc: Record<string, unknown> = { key: row.key, ...pick(presentLevelAdmin(row, []), LEVEL_FIELDS), challenges };
  const byDefault = levelColumns({
    ...row,
    level_reward_type: row.level_reward_type as CatalogLevel["level_reward_type"],
    reward_type_name: undefined,
    points_rewards: parsePointsRewards(row.points_rewards),
  });
  if (doc.reward_type_name === byDefault.reward_type_name) delete doc.reward_type_name;
  return doc as CatalogLevel;
}

export const passDoc = (row: PassRow, levels: CatalogLevel[]) =>
  ({ key: row.key, ...pick(presentPassAdmin(row), PASS_FIELDS), levels }) as CatalogBattlePass;

const TIMES = { created_at: "", updated_at: "" };

/** `position`: its place in the level. */
const canonicalLevelChallenge = (doc: CatalogLevelChallenge, position: number): CatalogLevelChallenge =>
  levelChallengeDoc({
    challenge_id: 0,
    app_id: 0,
    level_id: 0,
    key: doc.key,
    ...levelChallengeColumns(doc, position),
  } as LevelChallengeRow);

/** `current`: the level's row when it exists, whose priority a document without one keeps. */
const canonicalLevel = (doc: CatalogLevel, current: LevelRow | undefined): CatalogLevel =>
  levelDoc(
    {
      level_id: 0,
      app_id: 0,
      battle_pass_id: 0,
      key: doc.key,
      level_priority: doc.level_priority ?? current?.level_priority ?? null,
      ...TIMES,
      ...levelColumns(doc),
    } as LevelRow,
    doc.challenges,
  );

const canonicalPass = (doc: CatalogBattlePass): CatalogBattlePass =>
  passDoc(
    { battle_pass_id: 0, app_id: 0, key: doc.key, expired_at: null, ...TIMES, ...passColumns(doc) } as PassRow,
    doc.levels,
  );

function exportPasses(snapshot: CatalogSnapshot): CatalogBattlePass[] {
  const s = snapshot as PassesSnapshot;
  const levelsBy = byId(s.levels, (l) => l.battle_pass_id);
  const levelChallengesBy = byId(s.levelChallenges, (c) => c.level_id);
  return s.passes.map((pass) =>
    passDoc(
      pass,
      (levelsBy.get(pass.battle_pass_id) ?? []).map((level) =>
        levelDoc(level, (levelChallengesBy.get(level.level_id) ?? []).map(levelChallengeDoc)),
      ),
    ),
  );
}

// ---- the plan: levels are keyed in their pass, challenges in their level

class PassPlan {
  constructor(
    private readonly p: CatalogPlanner,
    private readonly s: PassesSnapshot,
  ) {}

  /** Users who unlocked a pass that has not ended: their counters and claims depend on it. */
  private blockIfHeld(pass: PassRow | undefined, object: string, ref: string, what: string): void {
    if (!pass || Date.parse(pass.end_date) <= this.p.now) return;
    const users = this.s.holders.passes.get(pass.battle_pass_id) ?? 0;
    if (users > 0)
      this.p.block(
        object,
        ref,
        `${usersWord(users, "user has", "users have")} unlocked battle pass ${pass.key}, which runs until ${pass.end_date}: ${what}`,
      );
  }

  private levelsOf = (passId: number) => this.s.levels.filter((l) => l.battle_pass_id === passId);
  private challengesOf = (levelId: number) => this.s.levelChallenges.filter((c) => c.level_id === levelId);

  /** A level the document leaves out, and with prune its challenges before it. */
  private levelLeftOut(pass: PassRow, level: LevelRow): void {
    const ref = `battle_passes/${pass.key}/levels/${level.key}`;
    for (const c of this.p.prune ? this.challengesOf(level.level_id) : [])
      this.p.leftOut({ object: "level_challenge", ref: `${ref}/challenges/${c.key}`, row: c });
    if (this.p.leftOut({ object: "level", ref, row: level }))
      this.blockIfHeld(pass, "level", ref, "deleting the level would drop their progress in it");
  }

  passes(wanted: CatalogBattlePass[]): void {
    const passes = indexBy(this.s.passes, (p) => p.key);
    const wantedKeys = new Set(wanted.map((p) => p.key));
    for (const row of this.s.passes) {
      if (wantedKeys.has(row.key)) continue;
      const ref = `battle_passes/${row.key}`;
      for (const level of this.p.prune ? this.levelsOf(row.battle_pass_id) : []) {
        for (const c of this.challengesOf(level.level_id))
          this.p.leftOut({ object: "level_challenge", ref: `${ref}/levels/${level.key}/challenges/${c.key}`, row: c });
        this.p.leftOut({ object: "level", ref: `${ref}/levels/${level.key}`, row: level });
      }
      if (this.p.leftOut({ object: "battle_pass", ref, row }))
        this.blockIfHeld(row, "battle_pass", ref, "deleting it would drop their progress");
    }

    wanted.forEach((pass, passIndex) => {
      const row = passes.get(pass.key);
      this.p.upsert(
        { object: "battle_pass", ref: `battle_passes/${pass.key}`, doc: pass, row },
        row ? passDoc(row, []) : null,
        canonicalPass(pass),
        ["levels"],
      );
      const levels = row ? indexBy(this.levelsOf(row.battle_pass_id), (l) => l.key) : new Map<string, LevelRow>();
      const wantedLevels = new Set(pass.levels.map((l) => l.key));
      for (const level of levels.values()) if (!wantedLevels.has(level.key)) this.levelLeftOut(row!, level);
      pass.levels.forEach((level, levelIndex) => {
        this.level(pass, row, level, levels.get(level.key), `battle_passes.${passIndex}.levels.${levelIndex}`);
      });
    });
  }

  private level(
    pass: CatalogBattlePass,
    passRow: PassRow | undefined,
    level: CatalogLevel,
    row: LevelRow | undefined,
    path: string,
  ): void {
    const ref = `battle_passes/${pass.key}/levels/${level.key}`;
    this.p.upsert(
      { object: "level", ref, doc: level, passKey: pass.key, row },
      row ? levelDoc(row, []) : null,
      canonicalLevel(level, row),
      ["challenges"],
    );
    const current = row ? indexBy(this.challengesOf(row.level_id), (c) => c.key) : new Map<string, LevelChallengeRow>();
    const wanted = new Set(level.challenges.map((c) => c.key));
    let staying = 0;
    for (const c of current.values()) {
      if (wanted.has(c.key)) continue;
      const challengeRef = `${ref}/challenges/${c.key}`;
      if (this.p.leftOut({ object: "level_challenge", ref: challengeRef, row: c }))
        this.blockIfHeld(
          passRow,
          "level_challenge",
          challengeRef,
          "deleting the challenge would drop their progress in it",
        );
      else staying++;
    }
    if (staying + level.challenges.length > MAX_CHALLENGES_PER_LEVEL) {
      this.p.problem(
        `${path}.challenges`,
        `with the ${staying} challenges of the app that the document leaves in it, the level would hold more than ${MAX_CHALLENGES_PER_LEVEL}`,
      );
    }
    level.challenges.forEach((challenge, position) => {
      const challengeRow = current.get(challenge.key);
      const challengeRef = `${ref}/challenges/${challenge.key}`;
      const moved =
        challengeRow && challengeRow.position !== position
          ? [{ field: "position", before: challengeRow.position, after: position }]
          : [];
      const step = this.p.upsert(
        {
          object: "level_challenge",
          ref: challengeRef,
          doc: challenge,
          passKey: pass.key,
          levelKey: level.key,
          position,
          row: challengeRow,
        },
        challengeRow ? levelChallengeDoc(challengeRow) : null,
        canonicalLevelChallenge(challenge, position),
        [],
        moved,
      );
      const counting = countingChanges(step);
      if (counting.length > 0)
        this.blockIfHeld(
          passRow,
          "level_challenge",
          challengeRef,
          `changing ${counting.join(", ")} would change what their counters mean`,
        );
    });
  }
}

// ---- the writes: objects created in the same batch are referred to by key

function statement(db: D1Database, appId: number, step: Step, now: number): D1PreparedStatement {
  const nowIso = toIso(now);
  const deleting = step.action === "delete";
  const passKey = step.passKey as string;
  switch (step.object) {
    case "battle_pass":
      if (deleting) return deletePassStatement(db, step.row.battle_pass_id);
      return step.row
        ? updatePassStatement(db, step.row.battle_pass_id, step.doc, nowIso)
        : insertPassStatement(db, appId, step.doc, nowIso);
    case "level":
      if (deleting) return deleteLevelStatement(db, step.row.level_id);
      return step.row
        ? updateLevelStatement(db, step.row.level_id, step.doc, nowIso)
        : insertLevelStatement(db, appId, passByKey(appId, passKey), step.doc, nowIso);
    default:
      if (deleting) return deleteLevelChallengeStatement(db, step.row.challenge_id);
      return step.row
        ? updateLevelChallengeStatement(db, step.row.challenge_id, step.doc, step.position as number)
        : insertLevelChallengeStatement(
            db,
            appId,
            levelByKey(passByKey(appId, passKey), step.levelKey as string),
            step.doc,
            step.position as number,
          );
  }
}

function problems(docs: CatalogBattlePass[], rules: { allowLoopbackWebhooks: boolean }): FieldProblem[] {
  const found = duplicateKeys(
    docs.map((p, i) => ({ key: p.key, field: `battle_passes.${i}.key` })),
    "the document's battle passes",
  );
  docs.forEach((pass, i) => {
    found.push(
      ...duplicateKeys(
        pass.levels.map((l, j) => ({ key: l.key, field: `battle_passes.${i}.levels.${j}.key` })),
        `battle pass ${pass.key}`,
      ),
    );
    pass.levels.forEach((level, j) => {
      const at = `battle_passes.${i}.levels.${j}`;
      found.push(
        ...duplicateKeys(
          level.challenges.map((c, k) => ({ key: c.key, field: `${at}.challenges.${k}.key` })),
          `level ${level.key}`,
        ),
      );
      const url = level.reward_webhook_url;
      const problem = url === null ? null : webhookUrlProblem(url, rules.allowLoopbackWebhooks);
      if (problem) found.push({ field: `${at}.reward_webhook_url`, problem });
    });
  });
  return found;
}

export const battlePassCatalogSection: CatalogSection = {
  key: "battle_passes",
  schema: z.array(CatalogBattlePass).max(1000).default([]),
  objects: {
    battle_pass: {
      resource: "battle-pass",
      label: "battle pass",
      deletedDoc: (step) => passDoc(step.row, []),
    },
    level: { resource: "battle-pass-level", label: "level", deletedDoc: (step) => levelDoc(step.row, []) },
    level_challenge: {
      resource: "battle-pass-level-challenge",
      label: "level challenge",
      deletedDoc: (step) => levelChallengeDoc(step.row),
    },
  },
  reads: (db, appId) => ({
    passes: db.prepare(`SELECT * FROM battle_passes WHERE app_id = ? ORDER BY ${PASS_ORDER}`).bind(appId),
    levels: db.prepare(`SELECT * FROM battle_pass_levels WHERE app_id = ? ORDER BY ${LEVEL_ORDER}`).bind(appId),
    levelChallenges: db
      .prepare("SELECT * FROM battle_pass_challenges WHERE app_id = ? ORDER BY level_id, position, challenge_id")
      .bind(appId),
  }),
  export: exportPasses,
  plan: (planner, wanted, snapshot) =>
    new PassPlan(planner, snapshot as PassesSnapshot).passes(wanted as CatalogBattlePass[]),
  statement,
  problems: (docs, rules) => problems(docs as CatalogBattlePass[], rules),
};
