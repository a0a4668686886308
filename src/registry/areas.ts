import type {
  AreaPlugin,
  BackgroundHandler,
  Correction,
  CronTask,
  ObjectExists,
  PlayerTopicLink,
  RouteWiring,
  UserAreaPart,
} from "../kit/area";
import type { CatalogObjectKind, CatalogSection } from "../kit/catalog";
import type { BackgroundKind } from "../user/messages";
import { challengesPlugin } from "../challenges/plugin";
import { battlePassesPlugin } from "../battlepasses/plugin";
import { leaderboardsPlugin } from "../leaderboards/plugin";
import { pointsPlugin } from "../points/plugin";
import { streaksPlugin } from "../streaks/plugin";
import { achievementsPlugin } from "../achievements/plugin";
import { leaguesPlugin } from "../leagues/plugin";
import { webhooksPlugin } from "../webhooks/channel";

/**
 * Every area of the service, in the order the catalog document, the admin API and the console list
 * them. Adding an area is one line here (docs/architecture.md, "Adding an area"); the
 * cross-cutting features read the areas from this file only.
 */
export const AREAS: readonly AreaPlugin[] = [
  challengesPlugin,
  battlePassesPlugin,
  leaderboardsPlugin,
  pointsPlugin,
  streaksPlugin,
  achievementsPlugin,
  leaguesPlugin,
  webhooksPlugin,
];

// ---- the areas' parts, as each cross-cutting feature reads them

/** The user object's areas, in the order an event applies to them. */
export const USER_AREAS: { name: string; part: UserAreaPart }[] = AREAS.flatMap((area) =>
  area.userArea ? [{ name: area.name, part: area.userArea }] : [],
).sort((a, b) => (a.part.eventOrder ?? 0) - (b.part.eventOrder ?? 0));

/** The catalog document's sections, in the document's order. */
export const CATALOG_SECTIONS: CatalogSection[] = AREAS.flatMap((area) => (area.catalog ? [area.catalog] : []));

/** Each kind of catalog object, by name, with its section. */
export const CATALOG_OBJECT_SECTION: Record<string, CatalogSection> = Object.fromEntries(
  CATALOG_SECTIONS.flatMap((section) => Object.keys(section.objects).map((object) => [object, section])),
);
export const CATALOG_OBJECT_KINDS: Record<string, CatalogObjectKind> = Object.fromEntries(
  CATALOG_SECTIONS.flatMap((section) => Object.entries(section.objects)),
);

/** The areas' cron tasks by name. */
export const AREA_CRON_TASKS: Record<string, CronTask> = Object.assign({}, ...AREAS.map((area) => area.cron ?? {}));

/** The areas' handlers of a kind of background message. */
export function backgroundHandlers<K extends BackgroundKind>(kind: K): BackgroundHandler<K>[] {
  return AREAS.flatMap((area) => {
    const handler = area.background?.[kind] as BackgroundHandler<K> | undefined;
    return handler ? [handler] : [];
  });
}

/** The statements that list the event names the areas' configurations count (?1: the app). */
export const COUNTED_EVENT_NAMES_SQL: string[] = AREAS.flatMap((area) =>
  area.countedEventNamesSql ? [area.countedEventNamesSql] : [],
);

/** The areas' parts of the admin's view of one player, in the answer's order. */
export const PLAYER_STATE_PARTS = AREAS.flatMap((area) => (area.playerState ? [area.playerState] : []));

/** What the areas keep about players outside their objects: erased, moved by bans, exported. */
export const PLAYER_ROWS_PARTS = AREAS.flatMap((area) => (area.players ? [area.players] : []));
export const PLAYER_EXPORT_PARTS = PLAYER_ROWS_PARTS.flatMap((part) => part.export ?? []);

/** A correction an area makes outside a user's object, by its name; `wiring` gives it the fan-out. */
export function areaCorrection<Input>(name: string, wiring: RouteWiring): Correction<Input> {
  const found = AREAS.flatMap((area) => area.corrections?.(wiring) ?? []).find((c) => c.name === name);
  if (!found) throw new Error(`No area makes the correction ${name}`);
  return found;
}

/** The areas' player topic links by kind (`GET /api/v1/auth/<kind>-topic-link`). */
export const PLAYER_TOPIC_LINKS: [string, PlayerTopicLink][] = AREAS.flatMap((area) =>
  Object.entries(area.playerTopicLinks ?? {}),
);

/** Whether the object of this kind (as a topic link names it) exists in the app. */
export function objectExists(kind: string): ObjectExists {
  const exists = AREAS.find((area) => area.objectExists?.[kind])?.objectExists?.[kind];
  if (!exists) throw new Error(`No area knows objects of kind ${kind}`);
  return exists;
}
