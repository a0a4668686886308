import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { Hono } from "hono";
import { DomainError } from "../../shared/domain-errors";
import { invalid } from "../../shared/domain-errors";
import { recordAudit, type Actor } from "../../apps/audit-log";
import { requestOrigin } from "../../apps/actor";
import type { AppEnv } from "../../shared/http";
import type { ConsoleSession } from "./sessions";
import type { NavEntry } from "./ui/nav";
import { formValuesOf, type FormValues } from "./core/form";
import { refusedTarget } from "./core/refusals";
import { may, type Permission } from "./core/roles";

/** What every console handler shares: its context, cookies, form bodies, notices and the role check. */

export type ConsoleEnv = {
  Bindings: Env;
  Variables: AppEnv["Variables"] & {
    session: ConsoleSession;
    /** The areas' entries of an app's navigation (set for every console request, src/console/routes.ts). */
    areaNav?: readonly NavEntry[];
  };
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

/** What a signed-in user's role does not allow: a 403 page, and an entry in the audit log (recordRefusal). */
export class PermissionRefused extends DomainError {
  constructor(
    readonly permission: Permission,
    role: string,
  ) {
    const needed = permission === "administer" ? "an owner" : "an editor or an owner";
    super("forbidden", `Your role (${role}) may only read here; this needs ${needed}.`);
  }
}

/** Refuses (403) what the signed-in role may not do; the page says which role it needs. */
export function guard(c: ConsoleContext, permission: Permission): void {
  const { role } = c.get("session");
  if (!may(role, permission)) throw new PermissionRefused(permission, role);
}

/**
 * An authenticated user tried what their role does not allow: the audit log keeps the attempt (who,
 * what, from where). Requests without a session never get here: they cannot drive writes.
 */
export async function recordRefusal(c: ConsoleContext, refused: PermissionRefused): Promise<void> {
  const target = refusedTarget(c.req.path, c.req.method);
  await recordAudit(c.env.DB, [
    {
      actor: consoleActor(c),
      ...target,
      outcome: "refused",
      after: { needed: refused.permission, role: c.get("session").role },
    },
  ]);
}

/** The signed-in user as the audit log names them, and where the request came from. */
export function consoleActor(c: ConsoleContext): Actor {
  const { operatorId, email } = c.get("session");
  const origin = { channel: "console" as const, ...requestOrigin(c) };
  if (operatorId === null) return { kind: "admin-token", id: null, name: null, ...origin };
  return { kind: "console-user", id: String(operatorId), name: email, ...origin };
}

export const canChange = (c: ConsoleContext, permission: Permission = "configure") =>
  may(c.get("session").role, permission);

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

/** The longest user id the API takes. */
export const MAX_USER_ID = 256;

/**
 * A path's user id: any text the API takes (1 to 256 characters); a longer one is no player's (never cut to another's
 * id).
 */
export function playerIdOf(c: ConsoleContext): string {
  const userId = c.req.param("userId") ?? "";
  if (userId.length > MAX_USER_ID)
    throw invalid(`A user id has at most ${MAX_USER_ID} characters; this one has ${userId.length}.`);
  return userId;
}
