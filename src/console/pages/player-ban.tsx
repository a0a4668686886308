import { toIso } from "../../shared/clock";
import { banToForm } from "../forms/bans";
import { DeleteButton, emptyForm, FormErrors, PostForm, TextField } from "../../kit/console/ui/forms";
import { Time } from "../../kit/console/ui/lists";
import { playerPath, type PlayerView } from "./player-view";

/**
 * A player's ban on their page: the ban in force with its reason and expiry; ban, change and lift for editors and
 * owners.
 */

const BAN_FIELDS = ["reason", "expires_at"];

function BanForm({ view }: { view: PlayerView }) {
  const form = view.banForm ?? emptyForm(banToForm(view.ban));
  return (
    <PostForm action={`${playerPath(view.app, view.userId)}/ban`}>
      <FormErrors errors={form.errors} fields={BAN_FIELDS} />
      <div class="grid two">
        <TextField
          form={form}
          name="reason"
          label="Reason"
          required
          help="Shown to the player in every refusal (their tokens, events and MQTT)."
        />
        <TextField
          form={form}
          name="expires_at"
          label="Ends (UTC)"
          type="datetime-local"
          help="Empty: until lifted. In the future; the ban ends by itself then."
        />
      </div>
      <button type="submit" class="danger">
        {view.ban ? "Change the ban" : "Ban player"}
      </button>
    </PostForm>
  );
}

export function BanSection({ view }: { view: PlayerView }) {
  const { ban } = view;
  return (
    <section class="panel" id="ban">
      <h2>Ban</h2>
      {ban ? (
        <p class="banned">
          <strong>Banned</strong> since <Time iso={ban.banned_at} />,{" "}
          {ban.expires_at === null ? (
            "until lifted"
          ) : (
            <>
              until <Time iso={toIso(ban.expires_at)} />
            </>
          )}
          : {ban.reason}
        </p>
      ) : (
        <p class="muted">Not banned.</p>
      )}
      {ban && view.canChange && (
        <DeleteButton
          action={`${playerPath(view.app, view.userId)}/unban`}
          label="Lift ban"
          confirm={`Lift the ban of ${view.userId}? Their tokens, events and scores count again at once.`}
        />
      )}
      {view.canChange && (
        <>
          <p class="muted">
            While banned the player's tokens and events are refused (403), their MQTT topics are closed, and their
            scores are hidden from every board until the ban ends.
          </p>
          <BanForm view={view} />
        </>
      )}
    </section>
  );
}
