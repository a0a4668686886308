import type { AppRow } from "../../apps/repo";
import type { BanRow } from "../../auth/bans";
import type { UserInfo } from "../../auth/user-info";
import type { RecentEvent } from "../../events/channel";
import type { readUserState } from "../../players/admin/state";
import type { ReceiptRow } from "../../players/erasure-receipts";
import type { FormState } from "../../kit/console/ui/forms";

/**
 * What a player's page shows, read once per request (players.tsx) and handed to each section of
 * PLAYER_SECTIONS; the sections live in their own files and need only this and the paths below.
 */
export interface PlayerView {
  app: AppRow;
  userId: string;
  info: UserInfo;
  state: Awaited<ReturnType<typeof readUserState>>;
  /** What each area's section of the page read (src/kit/area.ts `playerSection`), in their order. */
  sections: unknown[];
  events: RecentEvent[];
  /** The ban in force, or null (an expired ban the cron has not lifted yet is none). */
  ban: BanRow | null;
  /** Receipts of erasures of this user id, newest first. */
  erasures: ReceiptRow[];
  canChange: boolean;
  /** The ban form as typed, with its problems, after a refused ban. */
  banForm?: FormState;
  /** The problem of a refused erasure form (the typed id did not match). */
  eraseError?: string;
}

export { playerPath, playersPath } from "../../kit/console/ui/nav";
