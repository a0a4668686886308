/**
 * What a refused console request was about, for its audit entry. A player's pages (and removing a
 * member's entry from a board) name the player in their path: such an attempt is an entry about
 * that player (resource "player", the user id), so that erasing the player renames it like every
 * other entry about them; no path holding a user id is kept. Any other page is named by its path.
 */
export interface RefusedTarget {
  appId: string | null;
  resource: string;
  resourceId: string;
  action: string;
}

const PLAYER_PAGE = /^\/console\/apps\/(\d{1,15})\/players\/([^/]+)(?:\/([a-z-]+))?$/;
const BOARD_ENTRY = /^\/console\/apps\/(\d{1,15})\/leaderboards\/\d+\/members\/(user|team)\/([^/]+)\/remove$/;
const IN_APP = /^\/console\/apps\/(\d{1,15})(?:\/|$)/;

/** A path segment as the router reads it; a malformed escape stays as it is. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function refusedTarget(path: string, method: string): RefusedTarget {
  const player = PLAYER_PAGE.exec(path);
  if (player)
    return {
      appId: player[1],
      resource: "player",
      resourceId: decoded(player[2]),
      action: player[3] ?? method.toLowerCase(),
    };
  const entry = BOARD_ENTRY.exec(path);
  if (entry)
    return {
      appId: entry[1],
      resource: entry[2] === "user" ? "player" : "team",
      resourceId: decoded(entry[3]),
      action: "remove-score",
    };
  return {
    appId: IN_APP.exec(path)?.[1] ?? null,
    resource: "console-page",
    resourceId: path,
    action: method.toLowerCase(),
  };
}
