import type { z } from "@hono/zod-openapi";
import type { PlayerSection, PlayerSectionProps } from "../../kit/area";
import { requireApp } from "../../apps/repo";
import { isDomainError } from "../../shared/domain-errors";
import { correctStreak, type StreakCorrection } from "../corrections";
import { StreakFreezesGrantInput, StreakRestoreInput, type PlayerStreaksState } from "../schemas";
import {
  consoleActor,
  consoleRouter,
  guard,
  readForm,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { playerPath } from "../../kit/console/ui/nav";
import { PostForm } from "../../kit/console/ui/forms";
import { Table, Time } from "../../kit/console/ui/lists";

/**
 * A player's streaks on their page: length, longest, freezes, a calendar of the last closed periods
 * (kept, frozen, missed), and the operator's restore and grant of freezes, each with a reason.
 */

type State = z.infer<typeof PlayerStreaksState>;

const dayOf = (iso: string) => iso.slice(0, 10);

function Calendar({ days }: { days: State["streaks"][number]["calendar"] }) {
  if (days.length === 0) return <span class="muted">no closed period yet</span>;
  return (
    <ol class="streak-calendar" aria-label="Last periods, oldest first">
      {days.map((d) => (
        <li class={`status-${d.status}`} title={`${dayOf(d.period_start)}: ${d.status}`}>
          <span class="visually-hidden">
            {dayOf(d.period_start)} {d.status}
          </span>
        </li>
      ))}
    </ol>
  );
}

function StreaksSection({ view, state }: { view: PlayerSectionProps; state: State | null }) {
  if (!state || state.streaks.length === 0) return null;
  const base = `${playerPath(view.app, view.userId)}/streaks`;
  return (
    <section class="panel" id="streaks">
      <h2>Streaks</h2>
      <p class="muted">
        Time zone: {state.time_zone ?? "none stored (each streak's own)"}. Calendar:{" "}
        <span class="badge status-kept">kept</span> <span class="badge status-frozen">frozen</span>{" "}
        <span class="badge status-missed">missed</span>, oldest first.
      </p>
      <Table head={["Streak", "Length", "Longest", "Freezes", "This period", "Last periods"]}>
        {state.streaks.map((s) => (
          <tr>
            <td>
              {s.name} <span class="muted">({s.key})</span>
            </td>
            <td class="num">
              {s.length}
              {s.lost_length > 0 ? <span class="muted"> (lost {s.lost_length})</span> : null}
            </td>
            <td class="num">{s.longest}</td>
            <td class="num">
              {s.freezes} / {s.freezes_max}
            </td>
            <td>
              {s.count_this_period}/{s.min_count} {s.kept_this_period ? "kept" : ""}{" "}
              <span class="muted">
                until <Time iso={s.period_ends_at} />
              </span>
            </td>
            <td>
              <Calendar days={s.calendar} />
            </td>
          </tr>
        ))}
      </Table>
      {view.canChange && (
        <div class="grid two">
          <PostForm action={`${base}/restore`}>
            <h3>Restore a lost streak</h3>
            <div class="field">
              <label for="streak-restore-id">Streak</label>
              <select id="streak-restore-id" name="streak_id">
                {state.streaks
                  .filter((s) => s.restorable)
                  .map((s) => (
                    <option value={s.streak_id}>
                      {s.key}: back to {s.lost_length + s.length}
                    </option>
                  ))}
              </select>
            </div>
            <div class="field">
              <label for="streak-restore-reason">Reason</label>
              <input id="streak-restore-reason" name="reason" required placeholder="outage on the 3rd" />
            </div>
            <p class="muted">Only within 7 periods of the loss; kept in the audit log.</p>
            <button type="submit" disabled={!state.streaks.some((s) => s.restorable)}>
              Restore
            </button>
          </PostForm>
          <PostForm action={`${base}/freezes`}>
            <h3>Grant freezes</h3>
            <div class="field">
              <label for="streak-freezes-id">Streak</label>
              <select id="streak-freezes-id" name="streak_id">
                {state.streaks.map((s) => (
                  <option value={s.streak_id}>{s.key}</option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="streak-freezes-amount">Amount</label>
              <input id="streak-freezes-amount" name="amount" type="number" min="1" max="100" value="1" required />
            </div>
            <div class="field">
              <label for="streak-freezes-reason">Reason</label>
              <input id="streak-freezes-reason" name="reason" required placeholder="support goodwill" />
            </div>
            <p class="muted">Capped by the streak's most freezes; kept in the audit log.</p>
            <button type="submit">Grant</button>
          </PostForm>
        </div>
      )}
    </section>
  );
}

const correctionRoute = (name: StreakCorrection) => async (c: ConsoleContext) => {
  guard(c, "configure");
  const app = await requireApp(c.env.DB, c.req.param("appId") ?? "");
  const userId = c.req.param("userId") ?? "";
  const form = await readForm(c);
  const back = `${playerPath(app, userId)}#streaks`;
  const parsed =
    name === "streak-restore"
      ? StreakRestoreInput.safeParse({ reason: form.reason ?? "" })
      : StreakFreezesGrantInput.safeParse({
          amount: form.amount === undefined || form.amount === "" ? Number.NaN : Number(form.amount),
          reason: form.reason ?? "",
        });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "form"}: ${i.message}`);
    return redirectWithNotice(c, back, `Not changed: ${problems.join("; ")}`, "error");
  }
  try {
    const { after } = await correctStreak(
      c.env,
      name,
      { appId: String(app.app_id), userId, streakId: form.streak_id ?? "" },
      parsed.data,
      c.get("now"),
      consoleActor(c),
    );
    return redirectWithNotice(
      c,
      back,
      `Streak ${String(after.key)} of ${userId}: length ${String(after.length)}, ${String(after.freezes)} freezes.`,
    );
  } catch (err) {
    if (isDomainError(err, "invalid", "not-found", "conflict"))
      return redirectWithNotice(c, back, `Not changed: ${err.message}`, "error");
    throw err;
  }
};

export const playerStreaksPages = consoleRouter()
  .post("/console/apps/:appId/players/:userId/streaks/restore", correctionRoute("streak-restore"))
  .post("/console/apps/:appId/players/:userId/streaks/freezes", correctionRoute("streak-freezes"));

export const streaksPlayerSection: PlayerSection<State | null> = {
  read: async (_env, _app, _userId, _now, state) => (state.streaks as State | undefined) ?? null,
  render: (view, state) => <StreaksSection view={view} state={state} />,
};
