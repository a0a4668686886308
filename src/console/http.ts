import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { Hono } from "hono";
import { ApiError } from "../shared/errors";
import type { AppEnv } from "../shared/http";
import type { ConsoleSession } from "./auth/sessions";
import { formValuesOf, type FormValues } from "./core/form";
import { may, type Permission } from "./core/roles";

/** What every console handler shares: its context, cookies, form bodies, notices and the role check. */

export type ConsoleEnv = {
  Bindings: Env;
  Variables: AppEnv["Variables"] & { session: ConsoleSession };
};
export type ConsoleContext = Context<ConsoleEnv>;

export const consoleRouter = () => new Hono<ConsoleEnv>();

export const CONSOLE_PATH = "/console";
export const SESSION_COOKIE = "og_console_session";
const NOTICE_COOKIE = "og_console_notice";

/**
 * HttpOnly, Secure and SameSite=Strict, scoped to the console's paths. Browsers accept Secure
 * cookies from http://localhost and 127.0.0.1, so local runs work without TLS.
 */
export const COOKIE_OPTIONS = { path: CONSOLE_PATH, httpOnly: true, secure: true, sameSite: "Strict" } as const;

/** The form body, parsed once per request; a body that is not a form reads as empty. */
export async function readForm(c: Context): Promise<FormValues> {
  try {
    return formValuesOf(await c.req.parseBody({ all: true }));
  } catch {
    return {};
  }
}

/** The file a form uploaded as `name`, or null when none was chosen (browsers then send an empty part). */
export async function readFormFile(c: Context, name: string): Promise<File | null> {
  try {
    const value = (await c.req.parseBody({ all: true }))[name];
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    return last instanceof File && last.size > 0 ? last : null;
  } catch {
    return null;
  }
}

/** Refuses (403) what the signed-in role may not do; the page says which role it needs. */
export function guard(c: ConsoleContext, permission: Permission): void {
  const { role } = c.get("session");
  if (!may(role, permission)) {
    const needed = permission === "administer" ? "an owner" : "an editor or an owner";
    throw new ApiError(403, `Your role (${role}) may only read here; this needs ${needed}.`);
  }
}

export const canChange = (c: ConsoleContext, permission: Permission = "configure") => may(c.get("session").role, permission);

export type NoticeKind = "success" | "error";
export interface Notice {
  kind: NoticeKind;
  text: string;
}

/** After a change: back to a page (303), which shows `text` once as a short notice. */
export function redirectWithNotice(c: Context, location: string, text: string, kind: NoticeKind = "success") {
  setCookie(c, NOTICE_COOKIE, `${kind}:${text}`, { ...COOKIE_OPTIONS, maxAge: 60 });
  return c.redirect(location, 303);
}

/** The notice a redirect left, read once. */
export function takeNotice(c: Context): Notice | null {
  const raw = getCookie(c, NOTICE_COOKIE);
  if (!raw) return null;
  deleteCookie(c, NOTICE_COOKIE, COOKIE_OPTIONS);
  const [kind, ...text] = raw.split(":");
  return { kind: kind === "error" ? "error" : "success", text: text.join(":") };
}

/** A console path to return to after signing in; anything else (another site, another area) is not followed. */
export function safeNext(next: string | undefined): string {
  return next && /^\/console(\/|\?|$)/.test(next) && !next.includes("\\") ? next : CONSOLE_PATH;
}

/** Paging and search from the query: the admin API's currentPage and pageSize, bounded, never an error. */
export function listQuery(c: Context, defaultSize = 25) {
  const int = (name: string, fallback: number, max: number) => {
    const value = Number(c.req.query(name));
    return Number.isInteger(value) && value >= 1 ? Math.min(value, max) : fallback;
  };
  return {
    currentPage: int("currentPage", 1, 1_000_000),
    pageSize: int("pageSize", defaultSize, 100),
    search: (c.req.query("search") ?? "").trim().slice(0, 200),
  };
}
