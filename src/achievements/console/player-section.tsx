import type { PlayerSection, PlayerSectionProps } from "../../kit/area";
import { requireApp } from "../../apps/repo";
import { PLAYER_RESOURCE, recordAudit } from "../../apps/audit-log";
import { localize } from "../../shared/localize";
import { achievementsCatalog } from "../catalog";
import { userAchievements, type RevokeResult } from "../user-achievements";
import { consoleActor, consoleRouter, guard, readForm, redirectWithNotice } from "../../kit/console/http";
import { playerPath } from "../../kit/console/ui/nav";
import { PostForm } from "../../kit/console/ui/forms";
import { EmptyState, StatusBadge, Table, Time } from "../../kit/console/ui/lists";

/** A player's achievements on their page: what they hold and their progress, and a revocation with a reason. */

export async function readPlayerAchievements(env: Env, appId: string, userId: string) {
  const [catalog, rows] = await Promise.all([
    achievementsCatalog(env.DB, appId),
    userAchievements(env, appId, userId).progressOf(appId),
  ]);
  return rows.map((row) => ({
    ...row,
    name: localize(catalog.byId.get(row.achievement_id)?.name, undefined, catalog.defaultLanguage),
  }));
}

export type PlayerAchievementRows = Awaited<ReturnType<typeof readPlayerAchievements>>;

function progressText(row: PlayerAchievementRows[number]) {
  if (row.threshold === null) return <span class="muted">—</span>;
  if (row.progress === null) return `${row.threshold} required`;
  return (
    <>
      <meter min="0" max={row.threshold} value={Math.min(row.progress, row.threshold)} />{" "}
      {`${Math.min(row.progress, row.threshold).toLocaleString("en-US")} / ${row.threshold.toLocaleString("en-US")}`}
    </>
  );
}

function AchievementsSection({ view, rows }: { view: PlayerSectionProps; rows: PlayerAchievementRows }) {
  if (rows.length === 0) return null;
  const base = playerPath(view.app, view.userId);
  const held = rows.filter((r) => r.achieved_at !== null);
  return (
    <section class="panel" id="achievements">
      <h2>Achievements</h2>
      <p class="muted">
        Holds {held.length} of {rows.length}.
      </p>
      <Table head={["Achievement", "Status", "Progress", "Held since"]}>
        {rows.map((r) => (
          <tr>
            <td>
              {r.name} <span class="muted">({r.key})</span>
            </td>
            <td>
              <StatusBadge status={r.status} />
            </td>
            <td>{progressText(r)}</td>
            <td>{r.achieved_at ? <Time iso={r.achieved_at} /> : <span class="muted">not held</span>}</td>
          </tr>
        ))}
      </Table>
      {view.canChange && held.length > 0 ? (
        <PostForm action={`${base}/achievements/revoke`}>
          <h3>Revoke an achievement</h3>
          <div class="grid two">
            <div class="field">
              <label for="achievement-revoked">Achievement</label>
              <select id="achievement-revoked" name="achievement_id">
                {held.map((r) => (
                  <option value={r.achievement_id}>{r.key}</option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="achievement-reason">Reason</label>
              <input id="achievement-reason" name="reason" required placeholder="earned by an exploit" />
            </div>
          </div>
          <p class="muted">
            Composites that required it go too; points it credited stay. Kept in the audit log with the reason.
          </p>
          <button type="submit">Revoke</button>
        </PostForm>
      ) : (
        held.length === 0 && (
          <EmptyState>
            <p>Holds no achievement yet.</p>
          </EmptyState>
        )
      )}
    </section>
  );
}

export const playerAchievementsPages = consoleRouter().post(
  "/console/apps/:appId/players/:userId/achievements/revoke",
  async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = c.req.param("userId");
    const form = await readForm(c);
    const back = `${playerPath(app, userId)}#achievements`;
    const reason = (form.reason ?? "").trim();
    const achievementId = form.achievement_id ?? "";
    if (reason === "" || reason.length > 500)
      return redirectWithNotice(c, back, "Not revoked: say why (at most 500 characters).", "error");
    const appId = String(app.app_id);
    const result = (await userAchievements(c.env, appId, userId).revoke(
      appId,
      achievementId,
      userId,
    )) as unknown as RevokeResult;
    if (!result.ok) return redirectWithNotice(c, back, `Not revoked: ${result.message}`, "error");
    if (result.answer.revoked.length === 0)
      return redirectWithNotice(c, back, "Not revoked: the player does not hold it.", "error");
    await recordAudit(c.env.DB, [
      {
        actor: consoleActor(c),
        appId,
        resource: PLAYER_RESOURCE,
        resourceId: userId,
        action: "revoke-achievement",
        before: { user_id: userId, held: result.answer.revoked },
        after: { user_id: userId, revoked: result.answer.revoked, reason },
      },
    ]);
    return redirectWithNotice(c, back, `Revoked ${result.answer.revoked.length} achievement(s) of ${userId}.`);
  },
);

export const achievementsPlayerSection: PlayerSection<PlayerAchievementRows> = {
  read: (env, app, userId) => readPlayerAchievements(env, String(app.app_id), userId),
  render: (view, rows) => <AchievementsSection view={view} rows={rows} />,
};
