import type { PlayerSection, PlayerSectionProps } from "../../kit/area";
import { requireApp } from "../../apps/repo";
import { isDomainError } from "../../shared/domain-errors";
import { adjustPoints } from "../adjust";
import { AdjustmentInput } from "../schemas";
import { userPoints } from "../user-points";
import { consoleActor, consoleRouter, guard, readForm, redirectWithNotice } from "../../kit/console/http";
import { playerPath } from "../../kit/console/ui/nav";
import { PostForm } from "../../kit/console/ui/forms";
import { EmptyState, Table, Time } from "../../kit/console/ui/lists";

/** A player's points on their page: balance, points earned and level per system, the newest ledger entries, and an adjustment with a reason. */

const LEDGER_SHOWN = 20;

/** What the player's page shows of their points: read from their object. */
export async function readPlayerPoints(env: Env, appId: string, userId: string) {
  const points = userPoints(env, appId, userId);
  const [balances, stored] = await Promise.all([points.balances(appId), points.stored()]);
  return { systems: balances.systems, ledger: stored.ledger.slice(-LEDGER_SHOWN).reverse() };
}

export type PlayerPoints = Awaited<ReturnType<typeof readPlayerPoints>>;

function PointsSection({ view, points }: { view: PlayerSectionProps; points: PlayerPoints }) {
  if (points.systems.length === 0) return null;
  const base = playerPath(view.app, view.userId);
  return (
    <section class="panel" id="points">
      <h2>Points</h2>
      <Table head={["System", "Balance", "Earned", "Level", "Next level"]}>
        {points.systems.map((s) => (
          <tr>
            <td>
              {s.name} <span class="muted">({s.key})</span>
            </td>
            <td class="num">{s.balance.toLocaleString("en-US")}</td>
            <td class="num">{s.earned.toLocaleString("en-US")}</td>
            <td>{s.level ? `${s.level.level} ${s.level.name}` : <span class="muted">—</span>}</td>
            <td>
              {s.next_level ? (
                `${s.next_level.level} at ${s.next_level.points.toLocaleString("en-US")}`
              ) : (
                <span class="muted">—</span>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <h3>Ledger</h3>
      {points.ledger.length === 0 ? (
        <EmptyState>
          <p>No entry yet: nothing has been credited or spent.</p>
        </EmptyState>
      ) : (
        <Table head={["When", "System", "Amount", "Balance after", "Source", "Reason"]}>
          {points.ledger.map((e) => (
            <tr>
              <td>
                <Time iso={e.created_at} />
              </td>
              <td>{e.system}</td>
              <td class="num">{e.amount > 0 ? `+${e.amount}` : e.amount}</td>
              <td class="num">{e.balance_after.toLocaleString("en-US")}</td>
              <td>
                {e.source.kind}
                {e.source.id ? <span class="muted"> {e.source.id}</span> : null}
              </td>
              <td>{e.reason}</td>
            </tr>
          ))}
        </Table>
      )}
      {view.canChange && (
        <PostForm action={`${base}/points/adjust`}>
          <h3>Adjust a balance</h3>
          <div class="grid three">
            <div class="field">
              <label for="points-system">System</label>
              <select id="points-system" name="system">
                {points.systems.map((s) => (
                  <option value={s.key}>{s.key}</option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="points-amount">Amount</label>
              <input id="points-amount" name="amount" type="number" step="1" required placeholder="100 or -50" />
            </div>
            <div class="field">
              <label for="points-reason">Reason</label>
              <input id="points-reason" name="reason" required placeholder="lost coins after a crash" />
            </div>
          </div>
          <p class="muted">
            Kept in the audit log with the balance before and after; the player and the studio are notified as for any
            change. A balance never goes below zero.
          </p>
          <button type="submit">Adjust</button>
        </PostForm>
      )}
    </section>
  );
}

export const playerPointsPages = consoleRouter().post(
  "/console/apps/:appId/players/:userId/points/adjust",
  async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = c.req.param("userId");
    const form = await readForm(c);
    const back = `${playerPath(app, userId)}#points`;
    const parsed = AdjustmentInput.safeParse({
      amount: form.amount === undefined || form.amount === "" ? Number.NaN : Number(form.amount),
      reason: form.reason ?? "",
    });
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "form"}: ${i.message}`);
      return redirectWithNotice(c, back, `Not adjusted: ${problems.join("; ")}`, "error");
    }
    const system = form.system ?? "";
    try {
      const { after } = await adjustPoints(
        c.env,
        String(app.app_id),
        userId,
        system,
        parsed.data,
        c.get("now"),
        consoleActor(c),
      );
      return redirectWithNotice(c, back, `Balance of ${userId} in ${system} is now ${String(after.balance)}.`);
    } catch (err) {
      if (isDomainError(err, "invalid", "not-found", "conflict"))
        return redirectWithNotice(c, back, `Not adjusted: ${err.message}`, "error");
      throw err;
    }
  },
);

export const pointsPlayerSection: PlayerSection<PlayerPoints> = {
  read: (env, app, userId) => readPlayerPoints(env, String(app.app_id), userId),
  render: (view, points) => <PointsSection view={view} points={points} />,
};
