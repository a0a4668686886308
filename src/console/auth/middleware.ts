import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { forbidden } from "../../shared/domain-errors";
import { timingSafeEqual } from "../../shared/crypto";
import { readForm, SESSION_COOKIE, type ConsoleEnv } from "../../kit/console/http";
import { findSession } from "../../kit/console/sessions";

const SAFE_METHODS = new Set(["GET", "HEAD"]);

/** Where an unauthenticated request goes: the sign-in page, which returns to the page asked for. */
export const signInLocation = (url: string) => {
  const { pathname, search } = new URL(url);
  return `/console/sign-in?next=${encodeURIComponent(pathname + search)}`;
};

/** Every console path but sign-in: a live session, else a redirect to sign-in. */
export const requireSession = createMiddleware<ConsoleEnv>(async (c, next) => {
  const token = getCookie(c, SESSION_COOKIE);
  // Sessions live in wall-clock time: the development clock moves game time, not sign-ins.
  const session = token ? await findSession(c.env.DB, token, Date.now()) : null;
  if (!session) return c.redirect(signInLocation(c.req.url), 303);
  c.set("session", session);
  await next();
});

/** A request that says it comes from another site (browsers send Sec-Fetch-Site and Origin). */
export function isCrossSite(c: { req: { header(name: string): string | undefined; url: string } }): boolean {
  const fetchSite = c.req.header("Sec-Fetch-Site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = c.req.header("Origin");
  return origin !== undefined && origin !== "null" && origin !== new URL(c.req.url).origin;
}

/**
 * Every change needs the session's CSRF token: a form's `_csrf` field or htmx's X-CSRF-Token
 * header. With SameSite=Strict cookies this is the second, independent line of defence.
 */
export const verifyCsrf = createMiddleware<ConsoleEnv>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const sent = c.req.header("X-CSRF-Token") ?? (await readForm(c))._csrf;
  if (isCrossSite(c) || !sent || !timingSafeEqual(sent, c.get("session").csrfToken)) {
    throw forbidden("This form is out of date or did not come from the console. Reload the page and try again.");
  }
  await next();
});
