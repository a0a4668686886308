import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerApp, requireApiKey, requireTokenOrKey } from "../auth/middleware";
import { toIso } from "../shared/clock";
import { notFound } from "../shared/domain-errors";
import { createRouter, type AppEnv } from "../shared/http";
import { aliasOf, bearerSecurity, errorResponses, jsonResponse, pathId, StatusMessageSchema } from "../shared/openapi";
import { pageOffset } from "../shared/paging";
import { requireBoard, restartBoard } from "./admin/repo";
import { appLeaderboards, type LeaderboardDef, type MemberType } from "./catalog";
import { deleteMemberScores } from "./maintenance";
import {
  presentRanking,
  presentRankingV2,
  presentV1,
  presentV2,
  v1Head,
  v2Head,
  withNextReset,
  type MemberRow,
  type Presentation,
} from "./core/present";
import { readAround, readBoardPages, readMemberRows } from "./reads";
import {
  AroundQuery,
  BoardQuery,
  BoardQueryV2,
  Leaderboard,
  LeaderboardAround,
  LeaderboardMemberRanking,
  LeaderboardV2Around,
  LeaderboardV2MemberRanking,
  LeaderboardV2Results,
  LanguageQuery,
  MemberQueryV2,
  MemberTypeParam,
} from "./schemas";
import { requestActor } from "../apps/actor";

/**
 * The leaderboard reads of the spec (v1) and SCILL's v2 shapes of the same data, the member's
 * neighbourhood (beyond the spec), and SCILL's two reset endpoints. Reads take an access token or
 * an API key and serve the credential's app; resets take an API key (server side only, as the
 * spec's reset of a user's challenges).
 */

type Ctx = Context<AppEnv>;
const tags = ["Leaderboards"];
const readSecurity = bearerSecurity.tokenOrKey;

const BoardParams = z.object({ leaderboardId: pathId("leaderboardId") });
const MemberParams = z.object({
  memberType: MemberTypeParam,
  memberId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "memberId", in: "path" } }),
});
const MemberBoardParams = MemberParams.extend({ leaderboardId: pathId("leaderboardId") });

async function readContext(c: Ctx, language: string | undefined) {
  const appId = callerApp(c);
  const catalog = await appLeaderboards(c.env.DB, appId);
  const presentation: Presentation = {
    language,
    defaultLanguage: catalog.defaultLanguage,
    now: c.get("now"),
    infos: new Map(),
  };
  return { appId, boards: catalog.boards, p: presentation };
}

function findBoard(boards: LeaderboardDef[], leaderboardId: string): LeaderboardDef {
  const board = boards.find((b) => b.id === leaderboardId);
  if (!board) throw notFound(`Leaderboard ${leaderboardId} not found`);
  return board;
}

const NO_SCORE_NOTE =
  "A member without a score in the current season gets a row with score 0 and rank -1 (not an error).";
const RANKING_NOTE =
  "Equal scores share a rank, the next score skips the shared places (1, 1, 3); equal scores are listed by member id.";
const PAGING_NOTE =
  "currentPage starts at 1 (default 1), pageSize is 1..100 (default 25): page 0 or pageSize 101 answer 400, a page past the end answers empty lists. " +
  "Pages are read by keyset from a rank index: any page costs about the same at 10 thousand or millions of members.";
const V2_IGNORED =
  "startDate, endDate and aggregate are accepted and ignored: the board's own aggregation applies to its current season.";

/** The first row's 0-based position: v2's currentPosition (1-based) wins over currentPage. */
const offsetOf = (query: { currentPage: number; pageSize: number; currentPosition?: number }) =>
  query.currentPosition !== undefined ? query.currentPosition - 1 : pageOffset(query);

async function oneBoard(c: Ctx, leaderboardId: string, query: BoardsQuery) {
  const { appId, boards, p } = await readContext(c, query.language);
  const board = findBoard(boards, leaderboardId);
  const [page] = await readBoardPages(c.env.DB, appId, [board], p, offsetOf(query), query.pageSize);
  return { page, p };
}

type BoardsQuery = { language?: string; currentPage: number; pageSize: number; currentPosition?: number };

/**
 * SCILL's Unity SDK lists every board with `currentPosition` set to its `pageSize`
 * (csharp-sdk/src/SCILL/Api/LeaderboardsApi.cs:585; its GetLeaderboardsAsync never forwards a
 * position of the caller's, :559 and :567), so read as a position its first page would skip the
 * top pageSize − 1 rows. On this list, a position equal to the page size sent alongside
 * `currentPage` is that pattern and the page applies. A position sent on its own, or any other
 * position, is a position (see docs/scill-sdks.md).
 */
function boardsOffset(c: Ctx, query: BoardsQuery): number {
  const unityPattern = query.currentPosition === query.pageSize && c.req.query("currentPage") !== undefined;
  return unityPattern ? pageOffset(query) : offsetOf(query);
}

async function allBoards(c: Ctx, query: BoardsQuery) {
  const { appId, boards, p } = await readContext(c, query.language);
  return { pages: await readBoardPages(c.env.DB, appId, boards, p, boardsOffset(c, query), query.pageSize), p };
}

async function memberOnAll(c: Ctx, memberType: MemberType, memberId: string, language: string | undefined) {
  const { appId, boards, p } = await readContext(c, language);
  const rows = await readMemberRows(c.env.DB, appId, boards, memberType, memberId, p);
  return { entries: boards.map((board, i) => ({ board, row: rows[i] })), p };
}

async function memberOnOne(
  c: Ctx,
  memberType: MemberType,
  memberId: string,
  leaderboardId: string,
  language: string | undefined,
) {
  const { appId, boards, p } = await readContext(c, language);
  const board = findBoard(boards, leaderboardId);
  const [row] = await readMemberRows(c.env.DB, appId, [board], memberType, memberId, p);
  return { board, row, p };
}

async function around(
  c: Ctx,
  params: { memberType: MemberType; memberId: string; leaderboardId: string },
  query: { language?: string; range: number },
) {
  const { appId, boards, p } = await readContext(c, query.language);
  const board = findBoard(boards, params.leaderboardId);
  return {
    board,
    ...(await readAround(c.env.DB, appId, board, params.memberType, params.memberId, query.range, p)),
    p,
  };
}

const memberV1 = (board: LeaderboardDef, row: MemberRow, p: Presentation) =>
  withNextReset({ ...v1Head(board, p), member: presentRanking(row, p) }, board, p.now);
const memberV2 = (board: LeaderboardDef, row: MemberRow, p: Presentation) =>
  withNextReset({ ...v2Head(board, p), leaderboard_member: presentRankingV2(row, p) }, board, p.now);

const read = { method: "get" as const, tags, security: readSecurity, middleware: requireTokenOrKey };
const boardText = {
  summary: "Retrieve a leaderboard",
  description: `One page of the users and one of the teams of the board's current season. ${RANKING_NOTE} ${PAGING_NOTE}`,
};
const boardsText = {
  summary: "Retrieve all leaderboards of the app",
  description: `Every board of the credential's app, each with the same page of its rows. ${PAGING_NOTE}`,
};
const rankingsText = {
  summary: "Retrieve a member's rankings on every leaderboard",
  description: `memberType is user or team. ${NO_SCORE_NOTE}`,
};
const rankingText = {
  summary: "Retrieve a member's ranking on one leaderboard",
  description: `${NO_SCORE_NOTE} ${RANKING_NOTE}`,
};
const aroundText = {
  summary: "A member's neighbourhood on a leaderboard (beyond the spec)",
  description: `The member's row and the rows from \`range\` places before it to \`range\` places after it, in board order (fewer at either end). ${NO_SCORE_NOTE} Then members is empty.`,
};
const v2 = (text: { summary: string; description: string }) => ({
  ...text,
  description: `${text.description} ${V2_IGNORED}`,
});

const router = createRouter()
  .openapi(
    createRoute({
      operationId: "getLeaderboard",
      ...read,
      ...boardText,
      path: "/api/v1/leaderboards/{leaderboardId}",
      request: { params: BoardParams, query: BoardQuery },
      responses: { 200: jsonResponse(Leaderboard, "The leaderboard"), ...errorResponses },
    }),
    async (c) => {
      const { page, p } = await oneBoard(c, c.req.valid("param").leaderboardId, c.req.valid("query"));
      return c.json(presentV1(page, p), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboardV2",
      ...read,
      ...v2(boardText),
      path: "/api/v2/leaderboards/{leaderboardId}",
      request: { params: BoardParams, query: BoardQueryV2 },
      responses: { 200: jsonResponse(LeaderboardV2Results, "The leaderboard"), ...errorResponses },
    }),
    async (c) => {
      const { page, p } = await oneBoard(c, c.req.valid("param").leaderboardId, c.req.valid("query"));
      return c.json(presentV2(page, p), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboards",
      ...read,
      ...boardsText,
      path: "/api/v1/leaderboards",
      request: { query: BoardQuery },
      responses: { 200: jsonResponse(z.array(Leaderboard), "The leaderboards, by id"), ...errorResponses },
    }),
    async (c) => {
      const { pages, p } = await allBoards(c, c.req.valid("query"));
      return c.json(
        pages.map((page) => presentV1(page, p)),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboardsV2",
      ...read,
      ...v2(boardsText),
      path: "/api/v2/leaderboards",
      request: { query: BoardQueryV2 },
      responses: { 200: jsonResponse(z.array(LeaderboardV2Results), "The leaderboards, by id"), ...errorResponses },
    }),
    async (c) => {
      const { pages, p } = await allBoards(c, c.req.valid("query"));
      return c.json(
        pages.map((page) => presentV2(page, p)),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboardRankings",
      ...read,
      ...rankingsText,
      path: "/api/v1/leaderboards-members/{memberType}/{memberId}",
      request: { params: MemberParams, query: LanguageQuery },
      responses: {
        200: jsonResponse(z.array(LeaderboardMemberRanking), "One entry per board, by board id"),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { memberType, memberId } = c.req.valid("param");
      const { entries, p } = await memberOnAll(c, memberType, memberId, c.req.valid("query").language);
      return c.json(
        entries.map(({ board, row }) => memberV1(board, row, p)),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboardV2Rankings",
      ...read,
      ...v2(rankingsText),
      path: "/api/v2/leaderboards-members/{memberType}/{memberId}",
      request: { params: MemberParams, query: MemberQueryV2 },
      responses: {
        200: jsonResponse(z.array(LeaderboardV2MemberRanking), "One entry per board, by board id"),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { memberType, memberId } = c.req.valid("param");
      const { entries, p } = await memberOnAll(c, memberType, memberId, c.req.valid("query").language);
      return c.json(
        entries.map(({ board, row }) => memberV2(board, row, p)),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboardRanking",
      ...read,
      ...rankingText,
      path: "/api/v1/leaderboards-members/{memberType}/{memberId}/{leaderboardId}",
      request: { params: MemberBoardParams, query: LanguageQuery },
      responses: { 200: jsonResponse(LeaderboardMemberRanking, "The member's row"), ...errorResponses },
    }),
    async (c) => {
      const { memberType, memberId, leaderboardId } = c.req.valid("param");
      const { board, row, p } = await memberOnOne(
        c,
        memberType,
        memberId,
        leaderboardId,
        c.req.valid("query").language,
      );
      return c.json(memberV1(board, row, p), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboardV2Ranking",
      ...read,
      ...v2(rankingText),
      path: "/api/v2/leaderboards-members/{memberType}/{memberId}/{leaderboardId}",
      request: { params: MemberBoardParams, query: MemberQueryV2 },
      responses: { 200: jsonResponse(LeaderboardV2MemberRanking, "The member's row"), ...errorResponses },
    }),
    async (c) => {
      const { memberType, memberId, leaderboardId } = c.req.valid("param");
      const { board, row, p } = await memberOnOne(
        c,
        memberType,
        memberId,
        leaderboardId,
        c.req.valid("query").language,
      );
      return c.json(memberV2(board, row, p), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboardAround",
      ...read,
      ...aroundText,
      path: "/api/v1/leaderboards/{leaderboardId}/around/{memberType}/{memberId}",
      request: { params: MemberBoardParams, query: AroundQuery },
      responses: { 200: jsonResponse(LeaderboardAround, "The neighbourhood"), ...errorResponses },
    }),
    async (c) => {
      const { board, member, members, p } = await around(c, c.req.valid("param"), c.req.valid("query"));
      const body = {
        ...v1Head(board, p),
        member: presentRanking(member, p),
        members: members.map((r) => presentRanking(r, p)),
      };
      return c.json(withNextReset(body, board, p.now), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboardV2Around",
      ...read,
      ...aroundText,
      path: "/api/v2/leaderboards/{leaderboardId}/around/{memberType}/{memberId}",
      request: { params: MemberBoardParams, query: AroundQuery },
      responses: { 200: jsonResponse(LeaderboardV2Around, "The neighbourhood"), ...errorResponses },
    }),
    async (c) => {
      const { board, member, members, p } = await around(c, c.req.valid("param"), c.req.valid("query"));
      const body = {
        ...v2Head(board, p),
        leaderboard_member: presentRankingV2(member, p),
        members: members.map((r) => presentRankingV2(r, p)),
      };
      return c.json(withNextReset(body, board, p.now), 200);
    },
  );

const resetDone = jsonResponse(StatusMessageSchema, "Done: status 200, message OK");

// The v1 path is where SCILL's Unity SDK resets a board with ApiVersion v1 (LeaderboardsApi.cs:718).
const resetPaths = [
  ["/api/v2/leaderboards-reset/{appId}/{leaderboardId}", "resetLeaderboardV2Rankings", undefined],
  [
    "/api/v1/leaderboards-reset/{appId}/{leaderboardId}",
    "resetLeaderboardV2RankingsV1Path",
    "resetLeaderboardV2Rankings",
  ],
] as const;
for (const [path, operationId, alias] of resetPaths) {
  router.openapi(
    createRoute({
      operationId,
      ...aliasOf(alias),
      method: "delete",
      path,
      tags,
      security: bearerSecurity.apiKey,
      middleware: [requireApiKey] as const,
      summary: "Reset a leaderboard",
      description:
        "Starts a new, empty season of the board at once (its reset schedule, if any, continues from there). API key only.",
      request: { params: z.object({ appId: pathId("appId"), leaderboardId: pathId("leaderboardId") }) },
      responses: { 200: resetDone, ...errorResponses },
    }),
    async (c) => {
      const { appId: pathAppId, leaderboardId } = c.req.valid("param");
      const appId = callerApp(c, pathAppId);
      const board = await requireBoard(c.env.DB, Number(appId), leaderboardId);
      await restartBoard(c.env.DB, board, c.get("now"), toIso(c.get("now")), requestActor(c));
      return c.json({ status: 200, message: "OK" }, 200);
    },
  );
}

router.openapi(
  createRoute({
    operationId: "resetLeaderboardRankings",
    method: "delete",
    path: "/api/v1/reset-leaderboard/{memberType}/{appId}/{memberId}",
    tags,
    security: bearerSecurity.apiKey,
    middleware: [requireApiKey] as const,
    summary: "Reset a member's leaderboard data",
    description: "Removes the member's scores from every leaderboard of the app, in every season. API key only.",
    request: { params: MemberParams.extend({ appId: pathId("appId") }) },
    responses: { 200: resetDone, ...errorResponses },
  }),
  async (c) => {
    const { appId: pathAppId, memberType, memberId } = c.req.valid("param");
    const appId = callerApp(c, pathAppId);
    const { boards } = await appLeaderboards(c.env.DB, appId);
    await deleteMemberScores(
      c.env.DB,
      boards.map((b) => b.id),
      memberType,
      memberId,
    );
    return c.json({ status: 200, message: "OK" }, 200);
  },
);

export const leaderboardRoutes = router;
