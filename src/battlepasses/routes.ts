import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerApp, requireAccessToken, requireTokenOrKey } from "../auth/middleware";
import { invalid, conflict, forbidden, notFound } from "../shared/domain-errors";
import { createRouter, type AppEnv } from "../shared/http";
import {
  aliasOf,
  bearerSecurity,
  conflictResponse,
  errorResponses,
  forbiddenResponse,
  jsonResponse,
  pathId,
  StatusMessageSchema,
} from "../shared/openapi";
import { userBattlePasses } from "./user-progress";
import { battlePassCatalog, findLevel, type BattlePassCatalog, type CatalogPass } from "./catalog";
import { hasEnded, isTracking, type PassProgress } from "./core/progress";
import { presentLevels, presentPass, presentPassForUser, type Presentation } from "./core/present";
import {
  BattlePass,
  BattlePassForUser,
  BattlePassLevel,
  BattlePassUnlockInfo,
  LanguageQuery,
  UnlockBody,
} from "./schemas";
import { purchaseId } from "./purchase-id";
import type { BattlePassAction } from "./user-progress";

/**
 * The battle-pass endpoints: the spec's paths (with their odd `v1/api/...` and `v1/...` prefixes)
 * and SCILL's `/api/v1/battle-passes/...` and `/api/v1/battle-pass-levels/...`, served by the
 * same handlers. Reads and level actions take an access token; unlocking takes an access token or
 * an API key (then `user_id` in the body names the user).
 */

const tags = ["Battle passes"];
type Ctx = Context<AppEnv>;

async function readContext(c: Ctx, pathAppId: string | undefined, language: string | undefined) {
  const appId = callerApp(c, pathAppId);
  const catalog = await battlePassCatalog(c.env.DB, appId);
  const presentation: Presentation = { language, defaultLanguage: catalog.defaultLanguage, now: c.get("now") };
  return { appId, catalog, presentation };
}

/** The user of an access token (reads and level actions are per user). */
function tokenUser(c: Ctx): string {
  const caller = c.get("caller");
  if (caller.kind !== "access-token") throw new Error("route requires an access token");
  return caller.userId;
}

const progressOf = (c: Ctx, appId: string, userId: string): Promise<Record<string, PassProgress>> =>
  userBattlePasses(c.env, appId, userId).progress();

function requirePass(catalog: BattlePassCatalog, battlePassId: string): CatalogPass {
  const pass = catalog.passes.find((p) => p.battlePassId === battlePassId);
  if (!pass) throw notFound(`Battle pass ${battlePassId} not found`);
  return pass;
}

function requireLevel(catalog: BattlePassCatalog, levelId: string) {
  const found = findLevel(catalog, levelId);
  if (!found) throw notFound(`Level ${levelId} not found`);
  return found;
}

/** Runs an action in the user's object; a refused transition is a 409. Answers the progress before and after. */
async function act(c: Ctx, appId: string, userId: string, pass: CatalogPass, action: BattlePassAction) {
  const outcome = await userBattlePasses(c.env, appId, userId).act(pass, userId, action, c.get("now"));
  if (!outcome.ok) throw conflict(outcome.conflict);
  return outcome.value;
}

type PassFilter = (pass: CatalogPass, progress: PassProgress | undefined, now: number) => boolean;

/** Offered: switched on and not ended (upcoming passes can be sold before their season starts). */
const available: PassFilter = (pass, _progress, now) => pass.enabled && !hasEnded(pass, now);
const active: PassFilter = (pass, _progress, now) => isTracking(pass, now);
const unlocked: PassFilter = (_pass, progress) => progress !== undefined;

async function listPasses(c: Ctx, pathAppId: string, language: string | undefined, filter: PassFilter) {
  const { appId, catalog, presentation } = await readContext(c, pathAppId, language);
  const progress = await progressOf(c, appId, tokenUser(c));
  const passes = catalog.passes.filter((pass) => filter(pass, progress[pass.battlePassId], presentation.now));
  return c.json(
    passes.map((pass) => presentPass(pass, progress[pass.battlePassId] ?? null, presentation)),
    200,
  );
}

const ok = (c: Ctx) => c.json({ status: 200, message: "OK" }, 200);

const AppParams = z.object({ appId: pathId("appId") });
const PassParams = AppParams.extend({ battlePassId: pathId("battlePassId") });
const LevelParams = AppParams.extend({ levelId: pathId("levelId") });
const PassLevelParams = z.object({ battlePassId: pathId("battlePassId"), levelId: pathId("levelId") });
const security = bearerSecurity.accessToken;
const passList = jsonResponse(z.array(BattlePass), "Battle passes, by battle_pass_priority then id");
const levelList = jsonResponse(z.array(BattlePassLevel), "Levels in position order, with the user's progress");
const actionDone = jsonResponse(StatusMessageSchema, "Done: status 200, message OK");

const availableRoute = (path: string, operationId: string, alias?: string) =>
  createRoute({
    operationId,
    ...aliasOf(alias),
    method: "get",
    path,
    tags,
    security,
    middleware: [requireAccessToken] as const,
    summary: "Battle passes on offer",
    description:
      "Switched-on passes that have not ended (including those whose season has not started yet), with the user's unlocked_at.",
    request: { params: AppParams, query: LanguageQuery },
    responses: { 200: passList, ...errorResponses },
  });

const unlockedRoute = (path: string, operationId: string, alias?: string) =>
  createRoute({
    operationId,
    ...aliasOf(alias),
    method: "get",
    path,
    tags,
    security,
    middleware: [requireAccessToken] as const,
    summary: "Battle passes the user unlocked",
    description: "Including passes that ended: progress stays as achieved.",
    request: { params: AppParams, query: LanguageQuery },
    responses: { 200: passList, ...errorResponses },
  });

const singleRoute = (path: string, operationId: string, alias?: string) =>
  createRoute({
    operationId,
    ...aliasOf(alias),
    method: "get",
    path,
    tags,
    security,
    middleware: [requireAccessToken] as const,
    summary: "One battle pass with the user's status",
    request: { params: PassParams, query: LanguageQuery },
    responses: {
      200: jsonResponse(BattlePassForUser, "The battle pass, enriched with the user's purchase and completion"),
      ...errorResponses,
    },
  });

const levelsRoute = (path: string, operationId: string, alias?: string) =>
  createRoute({
    operationId,
    ...aliasOf(alias),
    method: "get",
    path,
    tags,
    security,
    middleware: [requireAccessToken] as const,
    summary: "The levels of a battle pass",
    request: { params: PassParams, query: LanguageQuery },
    responses: { 200: levelList, ...errorResponses },
  });

const unlockRoute = (path: string, operationId: string, alias?: string) =>
  createRoute({
    operationId,
    ...aliasOf(alias),
    method: "post",
    path,
    tags,
    security: bearerSecurity.tokenOrKey,
    middleware: [requireTokenOrKey] as const,
    summary: "Unlock a battle pass for a user",
    description:
      "Records purchase_price and purchase_currency and sets unlocked_at; the first level is activated. Unlocking again changes nothing and answers the pass. " +
      "With an access token the token names the user; with an API key (from the customer's backend, after validating a purchase) `user_id` in the body does. " +
      "A pass that is switched off or has ended cannot be unlocked (409). A pass with backend_only_unlock takes only an API key: a game client's unlock answers 403.",
    request: {
      params: PassParams,
      query: LanguageQuery,
      body: {
        required: false,
        description: "Purchase info",
        content: {
          "application/json": {
            schema: UnlockBody,
            examples: {
              backend: {
                summary: "From the studio's backend (API key), after validating the purchase",
                value: { user_id: "player-42", purchase_price: 4.99, purchase_currency: "EUR" },
              },
              client: {
                summary: "From a game client (access token)",
                value: { purchase_price: 500, purchase_currency: "coins" },
              },
            },
          },
        },
      },
    },
    responses: {
      200: jsonResponse(BattlePassUnlockInfo, "The unlocked pass with the user's purchase"),
      ...errorResponses,
      ...conflictResponse,
      ...forbiddenResponse(
        "The pass has backend_only_unlock and the caller is a game client (access token), or the token's player is banned",
      ),
    },
  });

const claimRoute = (path: string, operationId: string, alias?: string) =>
  createRoute({
    operationId,
    ...aliasOf(alias),
    method: "post",
    path,
    tags,
    security,
    middleware: [requireAccessToken] as const,
    summary: "Claim the reward of a completed level",
    description:
      "Only once, and only when level_completed is true (409 otherwise). Moves the level's challenges from unclaimed to finished and sends battlepass-level-reward-claimed (to the level's own reward URL when one is set).",
    request: { params: LevelParams, query: LanguageQuery },
    responses: { 200: actionDone, ...errorResponses, ...conflictResponse },
  });

const activateDescription =
  "For a pass with is_unlocked_incrementally false any level may be activated; its challenges start tracking. In an incremental pass levels activate one after the other as the previous completes: activating a later level is refused (409). Activating a level that is already active answers OK; a pass not unlocked or ended answers 409.";

async function unlock(
  c: Ctx,
  params: z.infer<typeof PassParams>,
  language: string | undefined,
  body: z.infer<typeof UnlockBody>,
) {
  const { appId, catalog, presentation } = await readContext(c, params.appId, language);
  const caller = c.get("caller");
  let userId: string;
  if (caller.kind === "access-token") {
    if (body.user_id !== undefined)
      throw invalid("user_id must not be sent with an access token: the token names the user", [
        { field: "user_id", problem: "not allowed with an access token" },
      ]);
    userId = caller.userId;
  } else {
    if (body.user_id === undefined)
      throw invalid("user_id is required when unlocking with an API key", [
        { field: "user_id", problem: "required with an API key" },
      ]);
    userId = body.user_id;
  }
  const pass = requirePass(catalog, params.battlePassId);
  if (pass.backendOnlyUnlock && caller.kind === "access-token") {
    throw forbidden(
      `Battle pass ${pass.battlePassId} is unlocked by the studio's backend only (backend_only_unlock): unlock it with an API key after checking the purchase`,
    );
  }
  const purchase = { price: body.purchase_price ?? 0, currency: body.purchase_currency ?? "" };
  const { after } = await act(c, appId, userId, pass, { kind: "unlock", purchase });
  const purchase_id = await purchaseId(appId, userId, pass.battlePassId);
  return c.json({ ...presentPassForUser(pass, after, userId, presentation), purchase_id }, 200);
}

async function claim(c: Ctx, pathAppId: string, levelId: string) {
  const appId = callerApp(c, pathAppId);
  const userId = tokenUser(c);
  const { pass } = requireLevel(await battlePassCatalog(c.env.DB, appId), levelId);
  await act(c, appId, userId, pass, { kind: "claim", levelId });
  return ok(c);
}

async function activate(c: Ctx, pathAppId: string | undefined, battlePassId: string | undefined, levelId: string) {
  const appId = callerApp(c, pathAppId);
  const userId = tokenUser(c);
  const { pass } = requireLevel(await battlePassCatalog(c.env.DB, appId), levelId);
  if (battlePassId !== undefined && pass.battlePassId !== battlePassId)
    throw notFound(`Level ${levelId} not found in battle pass ${battlePassId}`);
  await act(c, appId, userId, pass, { kind: "activate", levelId });
  return ok(c);
}

/**
 * A path of the spec (service.md) and SCILL's path of the same operation: SCILL's carries SCILL's
 * operationId, the spec's `<id>SpecPath` with `x-alias-of` SCILL's.
 */
const specAlias = (specPath: string, scillPath: string, operationId: string) =>
  [
    [specPath, `${operationId}SpecPath`, operationId],
    [scillPath, operationId, undefined],
  ] as const;

const router = createRouter();

for (const [path, operationId, alias] of specAlias(
  "/v1/api/battle-passes/{appId}",
  "/api/v1/battle-passes/{appId}",
  "getBattlePasses",
)) {
  router.openapi(availableRoute(path, operationId, alias), (c) =>
    listPasses(c, c.req.valid("param").appId, c.req.valid("query").language, available),
  );
}

router.openapi(
  createRoute({
    operationId: "getActiveBattlePasses",
    method: "get",
    path: "/api/v1/battle-passes/{appId}/active",
    tags,
    security,
    middleware: [requireAccessToken] as const,
    summary: "Battle passes whose season runs now",
    description: "Switched on and between start_date and end_date.",
    request: { params: AppParams, query: LanguageQuery },
    responses: { 200: passList, ...errorResponses },
  }),
  (c) => listPasses(c, c.req.valid("param").appId, c.req.valid("query").language, active),
);

for (const [path, operationId, alias] of specAlias(
  "/v1/api/battle-passes/{appId}/unlocked",
  "/api/v1/battle-passes/{appId}/unlocked",
  "getUnlockedBattlePasses",
)) {
  router.openapi(unlockedRoute(path, operationId, alias), (c) =>
    listPasses(c, c.req.valid("param").appId, c.req.valid("query").language, unlocked),
  );
}

for (const [path, operationId, alias] of specAlias(
  "/v1/battle-passes/{appId}/{battlePassId}",
  "/api/v1/battle-passes/{appId}/single/{battlePassId}",
  "getBattlePass",
)) {
  router.openapi(singleRoute(path, operationId, alias), async (c) => {
    const params = c.req.valid("param");
    const { appId, catalog, presentation } = await readContext(c, params.appId, c.req.valid("query").language);
    const pass = requirePass(catalog, params.battlePassId);
    const userId = tokenUser(c);
    const progress = (await progressOf(c, appId, userId))[pass.battlePassId] ?? null;
    return c.json(presentPassForUser(pass, progress, userId, presentation), 200);
  });
}

for (const [path, operationId, alias] of specAlias(
  "/v1/battle-pass-levels/{appId}/{battlePassId}",
  "/api/v1/battle-pass-levels/{appId}/{battlePassId}",
  "getBattlePassLevels",
)) {
  router.openapi(levelsRoute(path, operationId, alias), async (c) => {
    const params = c.req.valid("param");
    const { appId, catalog, presentation } = await readContext(c, params.appId, c.req.valid("query").language);
    const pass = requirePass(catalog, params.battlePassId);
    const progress = (await progressOf(c, appId, tokenUser(c)))[pass.battlePassId] ?? null;
    return c.json(presentLevels(pass, progress, presentation), 200);
  });
}

router.openapi(
  createRoute({
    operationId: "getAllBattlePassLevels",
    method: "get",
    path: "/api/v1/battle-pass-levels/{appId}",
    tags,
    security,
    middleware: [requireAccessToken] as const,
    summary: "The levels of every battle pass of the app",
    description: "Passes by priority then id, each pass's levels in position order.",
    request: { params: AppParams, query: LanguageQuery },
    responses: { 200: levelList, ...errorResponses },
  }),
  async (c) => {
    const { appId, catalog, presentation } = await readContext(
      c,
      c.req.valid("param").appId,
      c.req.valid("query").language,
    );
    const progress = await progressOf(c, appId, tokenUser(c));
    return c.json(
      catalog.passes.flatMap((pass) => presentLevels(pass, progress[pass.battlePassId] ?? null, presentation)),
      200,
    );
  },
);

for (const [path, operationId, alias] of specAlias(
  "/v1/battle-pass/{appId}/unlock/{battlePassId}",
  "/api/v1/battle-passes/{appId}/unlock/{battlePassId}",
  "unlockBattlePass",
)) {
  router.openapi(unlockRoute(path, operationId, alias), (c) =>
    unlock(c, c.req.valid("param"), c.req.valid("query").language, c.req.valid("json")),
  );
}

for (const [path, operationId, alias] of specAlias(
  "/v1/api/battle-pass-levels/{appId}/claim/{levelId}",
  "/api/v1/battle-pass-levels/{appId}/claim/{levelId}",
  "claimBattlePassLevelReward",
)) {
  router.openapi(claimRoute(path, operationId, alias), (c) =>
    claim(c, c.req.valid("param").appId, c.req.valid("param").levelId),
  );
}

router.openapi(
  createRoute({
    operationId: "activateBattlePassLevelSpecPath",
    ...aliasOf("activateBattlePassLevel"),
    method: "post",
    path: "/v1/api/battle-pass-levels/{battlePassId}/activate/{levelId}",
    tags,
    security,
    middleware: [requireAccessToken] as const,
    summary: "Activate a level (spec path: the pass id, not the app id, comes first)",
    description: activateDescription,
    request: { params: PassLevelParams, query: LanguageQuery },
    responses: { 200: actionDone, ...errorResponses, ...conflictResponse },
  }),
  (c) => activate(c, undefined, c.req.valid("param").battlePassId, c.req.valid("param").levelId),
);

router.openapi(
  createRoute({
    operationId: "activateBattlePassLevel",
    method: "post",
    path: "/api/v1/battle-pass-levels/{appId}/activate/{levelId}",
    tags,
    security,
    middleware: [requireAccessToken] as const,
    summary: "Activate a level (SCILL path)",
    description: activateDescription,
    request: { params: LevelParams, query: LanguageQuery },
    responses: { 200: actionDone, ...errorResponses, ...conflictResponse },
  }),
  (c) => activate(c, c.req.valid("param").appId, undefined, c.req.valid("param").levelId),
);

export const battlePassRoutes = router;
