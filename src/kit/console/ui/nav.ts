import type { Permission } from "../core/roles";

/**
 * The left navigation: `section` is what a page passes to be highlighted, `permission` hides
 * entries a role cannot use. An app's navigation is its dashboard, every area's entries (their
 * plugins' `console.nav`, src/kit/area.ts), then the app's own pages.
 */
export interface NavEntry {
  section: string;
  label: string;
  href: (appId: string) => string;
  permission?: Permission;
}

export const inApp = (path: string) => (appId: string) => `/console/apps/${appId}${path}`;

const APP_NAV_FIRST: NavEntry[] = [{ section: "dashboard", label: "Dashboard", href: inApp("") }];

const APP_NAV_LAST: NavEntry[] = [
  { section: "catalog", label: "Catalog", href: inApp("/catalog") },
  { section: "players", label: "Players", href: inApp("/players") },
  { section: "bans", label: "Bans", href: inApp("/bans") },
  { section: "events", label: "Event tester", href: inApp("/events") },
  { section: "audit", label: "Audit log", href: inApp("/audit") },
  { section: "keys", label: "API keys", href: inApp("/keys"), permission: "administer" },
  { section: "settings", label: "Settings", href: inApp("/settings") },
];

/** An app's navigation with the areas' entries in their place. */
export const appNav = (areaEntries: readonly NavEntry[]): NavEntry[] => [
  ...APP_NAV_FIRST,
  ...areaEntries,
  ...APP_NAV_LAST,
];

export const CONSOLE_NAV: { section: string; label: string; href: string; permission?: Permission }[] = [
  { section: "apps", label: "All apps", href: "/console" },
  { section: "users", label: "Console users", href: "/console/users", permission: "administer" },
  { section: "console-audit", label: "Audit log", href: "/console/audit" },
  { section: "status", label: "Service status", href: "/console/status" },
];

/** A player's page, and the list of the app's players. */
export const playersPath = (app: { app_id: number }) => `/console/apps/${app.app_id}/players`;
export const playerPath = (app: { app_id: number }, userId: string) =>
  `${playersPath(app)}/${encodeURIComponent(userId)}`;
