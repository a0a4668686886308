import type { Permission } from "../core/roles";

/**
 * The left navigation. An area adds its page with one entry here: `section` is what a page
 * passes to be highlighted, `permission` hides entries a role cannot use.
 */
export interface NavEntry {
  section: string;
  label: string;
  href: (appId: string) => string;
  permission?: Permission;
}

const inApp = (path: string) => (appId: string) => `/console/apps/${appId}${path}`;

export const APP_NAV: NavEntry[] = [
  { section: "dashboard", label: "Dashboard", href: inApp("") },
  { section: "challenges", label: "Challenges", href: inApp("/challenges") },
  { section: "battle-passes", label: "Battle passes", href: inApp("/battle-passes") },
  { section: "leaderboards", label: "Leaderboards", href: inApp("/leaderboards") },
  { section: "points", label: "Points", href: inApp("/points") },
  { section: "webhooks", label: "Webhooks", href: inApp("/webhooks") },
  { section: "catalog", label: "Catalog", href: inApp("/catalog") },
  { section: "players", label: "Players", href: inApp("/players") },
  { section: "bans", label: "Bans", href: inApp("/bans") },
  { section: "events", label: "Event tester", href: inApp("/events") },
  { section: "audit", label: "Audit log", href: inApp("/audit") },
  { section: "keys", label: "API keys", href: inApp("/keys"), permission: "administer" },
  { section: "settings", label: "Settings", href: inApp("/settings") },
];

export const CONSOLE_NAV: { section: string; label: string; href: string; permission?: Permission }[] = [
  { section: "apps", label: "All apps", href: "/console" },
  { section: "users", label: "Console users", href: "/console/users", permission: "administer" },
  { section: "console-audit", label: "Audit log", href: "/console/audit" },
  { section: "status", label: "Service status", href: "/console/status" },
];
