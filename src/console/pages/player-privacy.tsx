import type { AppRow } from "../../apps/repo";
import { PostForm } from "../../kit/console/ui/forms";
import { StatusBadge, Table, Time } from "../../kit/console/ui/lists";
import { playerPath, type PlayerView } from "./player-view";

/**
 * The player's rights on their page: their data as one file, and erasure (editors and owners) with the receipts of
 * earlier ones.
 */

/** The export's file name: the ids, with anything a file name or a header could trip on replaced. */
export const exportFileName = (app: AppRow, userId: string) =>
  `player-${app.app_id}-${userId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100)}.json`;

/** A receipt still on its way: the page refreshes its sections until it is done. */
export const erasureInProgress = (view: PlayerView) =>
  view.erasures.some((r) => r.status === "pending" || r.status === "running");

function Receipts({ view }: { view: PlayerView }) {
  return (
    <Table caption="Erasures of this user id" head={["Erasure", "State", "Requested", "Completed"]}>
      {view.erasures.map((r) => (
        <tr>
          <td>{r.erasure_id}</td>
          <td>
            <StatusBadge status={r.status} /> {r.error && <span class="muted">{r.error}</span>}
          </td>
          <td>
            <Time iso={r.requested_at} />
          </td>
          <td>
            <Time iso={r.completed_at} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

function EraseForm({ view }: { view: PlayerView }) {
  return (
    <>
      <p>
        Erasing removes everything about this player: progress, leaderboard entries, user info, their ban and held
        scores, webhook deliveries that name them, their MQTT subscriptions; their archived events can no longer be
        linked to them. Their current access tokens stop working; a new token starts a new player. This cannot be
        undone.
      </p>
      <PostForm action={`${playerPath(view.app, view.userId)}/erase`} swap="innerHTML">
        <div class={`field${view.eraseError ? " invalid" : ""}`}>
          <label for="confirm-user-id">Type the player's id, {view.userId}, to confirm</label>
          <input
            id="confirm-user-id"
            name="confirm_user_id"
            autocomplete="off"
            aria-invalid={view.eraseError ? "true" : undefined}
            aria-describedby={view.eraseError ? "confirm-user-id-errors" : undefined}
          />
          {view.eraseError && (
            <ul class="field-errors" id="confirm-user-id-errors">
              <li>{view.eraseError}</li>
            </ul>
          )}
        </div>
        <button type="submit" class="danger">
          Erase player
        </button>
      </PostForm>
    </>
  );
}

export function PrivacySection({ view }: { view: PlayerView }) {
  return (
    <section class={`panel${view.canChange ? " danger-zone" : ""}`} id="privacy">
      <h2>Data and erasure</h2>
      <p class="actions">
        <a
          class="button secondary"
          href={`${playerPath(view.app, view.userId)}/export`}
          download={exportFileName(view.app, view.userId)}
          hx-boost="false"
        >
          Download the player's data
        </a>
      </p>
      <p class="muted">
        Everything held about this player as JSON (an access request). Downloading it is recorded in the{" "}
        <a
          href={`/console/apps/${view.app.app_id}/audit?resource=player&resource_id=${encodeURIComponent(view.userId)}`}
        >
          audit log
        </a>
        , with every other action on them.
      </p>
      {view.erasures.length > 0 && <Receipts view={view} />}
      {view.canChange && <EraseForm view={view} />}
    </section>
  );
}
