import { z as zod, type OpenAPIHono, type z } from "@hono/zod-openapi";

import type { ChangeSink, LeaderboardAudience, TopicRef, WebhookType } from "../changes/types";
import type { AppEnv } from "../shared/http";
import type { CorrectionResult, UserAreaClass } from "../user/area";
import type { BackgroundKind, BackgroundMessagesOf } from "../user/messages";
import type { AreaTables } from "../shared/object-tables";
import type { CatalogSection } from "./catalog";
import type { Hono } from "hono";
import type { Child } from "hono/jsx";
import type { AppRow } from "../apps/repo";
import type { ConsoleEnv } from "./console/http";
import type { NavEntry } from "./console/ui/nav";

/**
 * An area as the rest of the service sees it: everything the cross-cutting features (the Worker's
 * routing, cron, the user's object, the background consumer, catalog as code, the players
 * features, fan-out, the console) need from it, in one object. Each area exports one, from its
 * `plugin.ts`; src/registry/areas.ts lists them. Every member but `name` is optional: an area
 * says only what it has.
 */
export interface AreaPlugin {
  /** Unique among the areas; also the name of its part of the user's object. */
  readonly name: string;
  /** Its routers (player API, admin API), mounted in this order under "/"; `wiring` gives what they hand on. */
  routes?(wiring: RouteWiring): readonly OpenAPIHono<AppEnv>[];
  /** Its part of the user's Durable Object (src/user/area.ts). */
  readonly userArea?: UserAreaPart;
  /** Table sets of the user's object the area keeps outside its `UserArea` (their migrations run in this order). */
  readonly userObjectTables?: readonly AreaTables[];
  /** Background work it does for queue messages of a kind (src/user/messages.ts); each must tolerate a replay. */
  readonly background?: { readonly [K in BackgroundKind]?: BackgroundHandler<K> };
  /** Periodic work by task name (unique across areas): the names appear in the cron's logs and status. */
  readonly cron?: Readonly<Record<string, CronTask>>;
  /**
   * The webhooks its changes are sent as (src/changes/types.ts), with their bodies for the OpenAPI
   * document; the same bodies are the MQTT messages of the changes' topics.
   */
  readonly webhooks?: readonly WebhookDoc[];
  /** The MQTT topics a game would listen on for one player (the console's event tester lists them). */
  playerTopics?(env: Env, app: { app_id: number; default_language: string }, userId: string): Promise<PlayerTopic[]>;
  /** Its section of the catalog document (catalog as code: export, plan, apply). */
  readonly catalog?: CatalogSection;
  /** Its part of the admin's read-only view of one player (GET /api/v1/admin/apps/{appId}/users/{userId}). */
  readonly playerState?: PlayerStatePart;
  /** What it keeps about a player outside their object: erased with them, moved by a ban, exported. */
  readonly players?: PlayerRowsPart;
  /**
   * Corrections an operator makes outside a user's object (a board's score); the players features
   * run them by name, with a reason and an audit entry (src/players/corrections.ts).
   */
  // biome-ignore lint/suspicious/noExplicitAny: each correction takes its own input
  corrections?(wiring: RouteWiring): readonly Correction<any>[];
  /** Whether one of its objects, by the kind a topic link names, exists in the app (the topic-link endpoints). */
  readonly objectExists?: Readonly<Record<string, ObjectExists>>;
  /** Its console pages and their entries in the app's navigation. */
  readonly console?: ConsolePart;
  /**
   * The event names its configuration counts in an app: one D1 statement binding ?1 to the app id
   * and answering `event_name` rows. An event of a name no area counts is an unused event (the
   * dashboard, the admin API) and the event tester warns before sending it.
   */
  readonly countedEventNamesSql?: string;
}

/** The area's class in the user's object, its RPC methods, and where it applies an event. */
export interface UserAreaPart {
  readonly area: UserAreaClass;
  /**
   * The methods of the area that the object answers over RPC (src/user/names.ts `callUserArea`):
   * nothing else of the area is reachable from outside the object.
   */
  readonly rpc: readonly string[];
  /**
   * Where the area applies an event among the others: ascending, then in the registry's order.
   * An area whose reports another's may follow goes first.
   */
  readonly eventOrder?: number;
}

export interface PlayerTopic {
  label: string;
  ref: TopicRef;
}

/** The player a section of their console page is about. */
export interface PlayerSectionProps {
  app: AppRow;
  userId: string;
  /** Whether the signed-in role may change things (corrections). */
  canChange: boolean;
}

export interface PlayerSection<T> {
  /** `state`: the player's state as the admin API answers it, every area's part under its key. */
  read(env: Env, app: AppRow, userId: string, now: number, state: Record<string, unknown>): Promise<T>;
  render(player: PlayerSectionProps, data: T): Child;
}

/** One webhook type as the OpenAPI document's `webhooks` section describes it. */
export interface WebhookDoc {
  type: WebhookType;
  operationId: string;
  schema: z.ZodType;
  summary: string;
  description: string;
}

/** A payload's `webhook_type` field. */
export const webhookTypeField = <T extends WebhookType>(value: T) =>
  zod.literal(value).openapi({ description: "The webhook type", example: value });

/** What the Worker hands an area's routes. */
export interface RouteWiring {
  /** The fan-out of changes made outside a user's object (webhooks and MQTT), for a request's `env`. */
  deliverFor(env: Env): ChangeSink;
}

export type BackgroundHandler<K extends BackgroundKind> = (
  messages: BackgroundMessagesOf<K>,
  env: Env,
  /** The fan-out of changes (webhooks and MQTT), and who receives a leaderboard's changes. */
  channels: BackgroundChannels,
) => Promise<void>;

/** What the background consumer hands its handlers. */
export interface BackgroundChannels {
  deliver: ChangeSink;
  leaderboardAudience: LeaderboardAudience;
}

export type CronTask = (env: Env, now: number, deliver: ChangeSink) => Promise<void>;

export interface PlayerStatePart {
  /** The answer's field. */
  readonly key: string;
  readonly schema: z.ZodType;
  /** The same part in the player's export (GET .../users/{userId}/export), when its schema says more. */
  readonly exportSchema?: z.ZodType;
  read(env: Env, appId: string, userId: string, now: number): Promise<unknown>;
  /** Its counts in the export's audit entry (what the player held), by name; by default the list's length under `key`. */
  held?(value: unknown): Record<string, number>;
}

/** What a correction is made on: the app, and the player (or other member) and object it names. */
export interface CorrectionTarget {
  appId: string;
  /** The audit entry's resource and id: the player (a team for a team's score). */
  resource: string;
  resourceId: string;
}

export interface Correction<Input> {
  /** Unique across areas; also the audit entry's action (`correct-<name>`). */
  name: string;
  run(env: Env, target: CorrectionTarget, input: Input, now: number): Promise<CorrectionResult>;
}

/** A player being erased, as their object knows them. */
export interface ErasedPlayer {
  appId: number;
  userId: string;
  /** The HMAC of (app, user) that names them from now on. */
  subject: string;
}

export interface PlayerRowsPart {
  /** Deletes every row about the player, each found by key or index (the erasure's one D1 batch). */
  eraseRows?(db: D1Database, player: ErasedPlayer): D1PreparedStatement[] | Promise<D1PreparedStatement[]>;
  /** Brings its rows in line with the player's ban, when a ban starts or ends (in the ban's D1 batch). */
  banStatements?(db: D1Database, appId: number, userId: string): D1PreparedStatement[];
  /** Its parts of the player's export (the right of access), after the areas' `playerState`. */
  readonly export?: readonly PlayerExportPart[];
}

/** Most entries of one list in the player's export; the rest are paged elsewhere. */
export const PLAYER_EXPORT_LIST_LIMIT = 100;

/** One field of the player's export. */
export interface PlayerExportPart {
  readonly key: string;
  /** What the player holds (before the player's ban in the export), or what fair play keeps of them (after it). */
  readonly kind: "held" | "fair-play";
  readonly schema: z.ZodType;
  read(env: Env, app: { app_id: number; default_language: string }, userId: string, now: number): Promise<unknown[]>;
  /** Its counts in the export's audit entry (what the player held), by name. */
  held?(value: unknown[]): Record<string, number>;
}

export type ObjectExists = (env: Env, appId: string, id: string) => Promise<boolean>;

/**
 * The area's pages in the admin console (/console), built on the console kit (src/kit/console): its
 * routers, mounted with the session and CSRF checks of every page, and its entries in an app's
 * navigation (after the dashboard, in the registry's order), which its pages highlight by section.
 */
export interface ConsolePart {
  pages(wiring: RouteWiring): readonly Hono<ConsoleEnv>[];
  readonly nav?: readonly NavEntry[];
  /** Its section of a player's page (read once per page, then rendered). */
  // biome-ignore lint/suspicious/noExplicitAny: each section reads its own data
  readonly playerSection?: PlayerSection<any>;
  /** Its panel on the app's dashboard. */
  dashboardPanel?(env: Env, app: { app_id: number; default_language: string }, now: number): Promise<Child>;
}
