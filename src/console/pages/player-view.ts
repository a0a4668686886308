import type { PlayerPoints } from "./player-points";
import type { AppRow } from "../../apps/repo";
import type { BanRow } from "../../auth/bans";
import type { UserInfo } from "../../auth/user-info";
import type { ChallengeCatalog } from "../../challenges/core/model";
import type { RecentEvent } from "../../events/recent-events";
import type { MemberRow } from "../../leaderboards/core/present";
import type { readUserState } from "../../players/admin/state";
import type { ReceiptRow } from "../../players/erasure-receipts";
import type { FormState } from "../ui/forms";

/**
 * What a player's page shows, read once per request (players.tsx) and handed to each section of
 * PLAYER_SECTIONS; the sections live in their own files and need only this and the paths below.
 */
export interface PlayerView {
  app: AppRow;
  userId: string;
  info: UserInfo;
  state: Awaited<ReturnType<typeof readUserState>>;
  catalog: ChallengeCatalog;
  boards: { name: string; id: string; row: MemberRow }[];
  events: RecentEvent[];
  /** The ban in force, or null (an expired ban the cron has not lifted yet is none). */
  ban: BanRow | null;
  /** Receipts of erasures of this user id, newest first. */
  erasures: ReceiptRow[];
  canChange: boolean;
  /** The player's points (src/console/pages/player-points.tsx). */
  points?: PlayerPoints;
  /** The ban form as typed, with its problems, after a refused ban. */
  banForm?: FormState;
  /** The problem of a refused erasure form (the typed id did not match). */
  eraseError?: string;
}

export const playersPath = (app: AppRow) => `/console/apps/${app.app_id}/players`;
export const playerPath = (app: AppRow, userId: string) => `${playersPath(app)}/${encodeURIComponent(userId)}`;
