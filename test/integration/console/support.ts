import { SELF } from "cloudflare:test";
import { ADMIN, call } from "../helpers";

const ORIGIN = "https://gamification.test";

export interface PageResult {
  status: number;
  html: string;
  location: string | null;
  headers: Headers;
}

/**
 * A browser as far as the console cares: a cookie jar, the CSRF token of the last page it saw,
 * and form posts with the page's origin. Redirects are not followed, so tests see each step.
 */
export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  csrf = "";

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...value] = pair.split("=");
      const expired = attributes.some((a) => /max-age=0/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim()));
      if (expired || value.join("=") === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join("="));
    }
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** A form body: urlencoded, or multipart (FormData, with files) with the boundary its serializer chooses. */
  async request(
    method: string,
    path: string,
    body?: URLSearchParams | FormData,
    headers: Record<string, string> = {},
  ): Promise<PageResult> {
    const response = await SELF.fetch(`${ORIGIN}${path}`, {
      method,
      redirect: "manual",
      headers: {
        Cookie: this.cookieHeader(),
        ...(body ? { Origin: ORIGIN } : {}),
        ...(body instanceof URLSearchParams ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
        ...headers,
      },
      body,
    });
    this.remember(response);
    const html = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html);
    if (token) this.csrf = token[1];
    return { status: response.status, html, location: response.headers.get("Location"), headers: response.headers };
  }

  get(path: string) {
    return this.request("GET", path);
  }

  /** Posts a form with the session's CSRF token, as the console's own forms do. */
  post(
    path: string,
    fields: Record<string, string> = {},
    options: { csrf?: string | null; headers?: Record<string, string> } = {},
  ) {
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    const body = new URLSearchParams({ ...(csrf === null ? {} : { _csrf: csrf }), ...fields });
    return this.request("POST", path, body, options.headers);
  }

  /** Posts a multipart form (a file upload) with the session's CSRF token. */
  postMultipart(path: string, fields: Record<string, string | File>) {
    const body = new FormData();
    body.set("_csrf", this.csrf);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    return this.request("POST", path, body);
  }

  /** Fetches the sign-in form (its token cookie) and posts it. */
  async signIn(fields: Record<string, string>, action = "/console/sign-in"): Promise<PageResult> {
    const page = await this.get("/console/sign-in");
    const formToken = /name="_form" value="([^"]+)"/.exec(page.html)![1];
    return this.request("POST", action, new URLSearchParams({ _form: formToken, ...fields }));
  }

  async signInAsOwner(): Promise<PageResult> {
    const result = await this.signIn({ admin_token: ADMIN }, "/console/sign-in/admin-token");
    await this.get("/console");
    return result;
  }

  /** Signs in as a new console user of `role`; answers the user's id. */
  async signInAs(
    role: "owner" | "editor" | "viewer",
    email = `${role}-${crypto.randomUUID().slice(0, 8)}@studio.test`,
  ) {
    const password = "correct horse battery";
    const created = await call("POST", "/api/v1/admin/console-users", {
      token: ADMIN,
      body: { email, role, password },
    });
    if (created.status !== 201) throw new Error(`console user: ${JSON.stringify(created.body)}`);
    const signedIn = await this.signIn({ email, password });
    if (signedIn.status !== 303) throw new Error(`sign-in as ${role}: ${signedIn.status}`);
    await this.get("/console");
    return { id: created.body.console_user_id as string, email, password };
  }
}

/** The text content of the element with `id`, roughly: enough to assert on messages. */
export function textOf(html: string, pattern: RegExp): string | null {
  const match = pattern.exec(html);
  return match
    ? match[1]
        .replace(/<[^>]+>/g, "")
        .replace(/\s+/g, " ")
        .trim()
    : null;
}
