/**
 * Console roles. Everyone signed in reads everything; an editor also changes an app's
 * configuration and operates on its players; an owner also manages apps, API keys and console
 * users. The admin token signs in as owner.
 */
export const CONSOLE_ROLES = ["owner", "editor", "viewer"] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

export type Permission = "read" | "configure" | "administer";

const GRANTS: Record<ConsoleRole, readonly Permission[]> = {
  owner: ["read", "configure", "administer"],
  editor: ["read", "configure"],
  viewer: ["read"],
};

export const may = (role: ConsoleRole, permission: Permission): boolean => GRANTS[role].includes(permission);

export const ROLE_DESCRIPTIONS: Record<ConsoleRole, string> = {
  owner: "everything, including apps, API keys and console users",
  editor: "an app's configuration, its webhooks and its players",
  viewer: "read only",
};
