import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { randomToken, timingSafeEqual } from "../../shared/crypto";
import {
  COOKIE_OPTIONS,
  consoleRouter,
  readForm,
  redirectWithNotice,
  safeNext,
  SESSION_COOKIE,
  takeNotice,
  type ConsoleEnv,
  type Notice,
} from "../../kit/console/http";
import { Document } from "../../kit/console/ui/layout";
import { afterFailure, FAILED_SIGN_IN_DELAY_MS, lockedFor } from "../core/sign-in-lock";
import { failureRecord, findOperatorByEmail, saveFailureRecord } from "../admin/repo";
import { decoyHash, verifyPassword } from "./passwords";
import { createSession, findSession, revokeSession } from "../../kit/console/sessions";
import { isCrossSite } from "./middleware";

/**
 * Signing in with an email and password, or with the admin token (as owner), and signing out.
 * The sign-in form has no session yet, so it carries its own token, matched against a cookie
 * (double submit), and the request must come from this origin.
 */
const SIGN_IN_COOKIE = "og_console_sign_in";

interface SignInView {
  next: string;
  email?: string;
  error?: string;
  notice?: Notice | null;
  adminTokenOpen?: boolean;
}

async function signInPage(c: Context<ConsoleEnv>, view: SignInView, status: ContentfulStatusCode = 200) {
  const formToken = randomToken(24);
  setCookie(c, SIGN_IN_COOKIE, formToken, { ...COOKIE_OPTIONS, maxAge: 3600 });
  return c.html(
    <Document title="Sign in" bodyClass="sign-in">
      <main class="sign-in-card" id="main">
        <h1>Open Gamification</h1>
        <p class="lead">Sign in to the console.</p>
        {view.notice && (
          <p class={`notice notice-${view.notice.kind}`} role="status">
            {view.notice.text}
          </p>
        )}
        {view.error && (
          <p class="notice notice-error" role="alert" id="sign-in-error">
            {view.error}
          </p>
        )}
        <form method="post" action="/console/sign-in" hx-boost="false">
          <input type="hidden" name="_form" value={formToken} />
          <input type="hidden" name="next" value={view.next} />
          <div class="field">
            <label for="email">Email</label>
            <input
              id="email"
              name="email"
              type="email"
              autocomplete="username"
              value={view.email ?? ""}
              required
              autofocus
            />
          </div>
          <div class="field">
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required />
          </div>
          <button type="submit">Sign in</button>
        </form>
        <details open={view.adminTokenOpen}>
          <summary>Sign in with the admin token</summary>
          <form method="post" action="/console/sign-in/admin-token" hx-boost="false">
            <input type="hidden" name="_form" value={formToken} />
            <input type="hidden" name="next" value={view.next} />
            <div class="field">
              <label for="admin-token">Admin token</label>
              <input id="admin-token" name="admin_token" type="password" autocomplete="off" required />
              <p class="help">The ADMIN_TOKEN secret of this service. It signs you in as owner.</p>
            </div>
            <button type="submit" class="secondary">
              Sign in as owner
            </button>
          </form>
        </details>
      </main>
    </Document>,
    status,
  );
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sign-in form's own token and origin; a stale form is shown again with a clear message. */
function formProblem(c: Context<ConsoleEnv>, values: Record<string, string>): string | null {
  const cookie = getCookie(c, SIGN_IN_COOKIE);
  if (isCrossSite(c) || !cookie || !values._form || !timingSafeEqual(cookie, values._form)) {
    return "The sign-in form had expired. Please sign in again.";
  }
  return null;
}

async function startSession(c: Context<ConsoleEnv>, operatorId: number | null, next: string) {
  const { token, expiresAt } = await createSession(c.env.DB, operatorId, Date.now());
  setCookie(c, SESSION_COOKIE, token, { ...COOKIE_OPTIONS, expires: new Date(expiresAt) });
  deleteCookie(c, SIGN_IN_COOKIE, COOKIE_OPTIONS);
  return c.redirect(safeNext(next), 303);
}

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

export const signInRoutes = consoleRouter()
  .get("/console/sign-in", async (c) => {
    const next = safeNext(c.req.query("next"));
    const token = getCookie(c, SESSION_COOKIE);
    if (token && (await findSession(c.env.DB, token, Date.now()))) return c.redirect(next, 303);
    return signInPage(c, { next, notice: takeNotice(c) });
  })
  .post("/console/sign-in", async (c) => {
    const values = await readForm(c);
    const next = safeNext(values.next);
    const email = (values.email ?? "").trim();
    const password = values.password ?? "";
    const stale = formProblem(c, values);
    if (stale) return signInPage(c, { next, email, error: stale }, 403);
    if (!email || !password) return signInPage(c, { next, email, error: "Enter your email and your password." }, 400);

    const now = Date.now();
    const user = await findOperatorByEmail(c.env.DB, email);
    const locked = user ? lockedFor(failureRecord(user), now) : 0;
    if (locked > 0) {
      await wait(FAILED_SIGN_IN_DELAY_MS);
      const error = `Too many wrong passwords for this account. Try again in ${minutes(locked)} minutes, or ask an owner to set a new password.`;
      return signInPage(c, { next, email, error }, 429);
    }
    // An unknown email costs the same key derivation as a known one.
    const matches = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user || !matches) {
      if (user) await saveFailureRecord(c.env.DB, user.console_user_id, afterFailure(failureRecord(user), now));
      await wait(FAILED_SIGN_IN_DELAY_MS);
      return signInPage(c, { next, email, error: "Wrong email or password." }, 401);
    }
    if (user.failed_sign_ins > 0)
      await saveFailureRecord(c.env.DB, user.console_user_id, { failedSignIns: 0, lastFailedAt: null });
    return startSession(c, user.console_user_id, next);
  })
  .post("/console/sign-in/admin-token", async (c) => {
    const values = await readForm(c);
    const next = safeNext(values.next);
    const stale = formProblem(c, values);
    if (stale) return signInPage(c, { next, error: stale, adminTokenOpen: true }, 403);
    const sent = values.admin_token ?? "";
    if (!c.env.ADMIN_TOKEN || !sent || !timingSafeEqual(sent, c.env.ADMIN_TOKEN)) {
      await wait(FAILED_SIGN_IN_DELAY_MS);
      return signInPage(c, { next, error: "That is not the admin token.", adminTokenOpen: true }, 401);
    }
    return startSession(c, null, next);
  });

/** Sign-out revokes the session in D1, not only the cookie. Behind the session and CSRF checks. */
export const signOutRoutes = consoleRouter().post("/console/sign-out", async (c) => {
  await revokeSession(c.env.DB, c.get("session").sessionHash, Date.now());
  deleteCookie(c, SESSION_COOKIE, COOKIE_OPTIONS);
  return redirectWithNotice(c, "/console/sign-in", "You are signed out.");
});
