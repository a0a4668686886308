import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { listApps } from "../../../apps/admin/repo";
import type { AppRow } from "../../../apps/repo";
import { takeNotice, type ConsoleContext } from "../http";
import { ConsolePage } from "./layout";
import { appNav } from "./nav";
import type { PageContext } from "./context";

const SWITCHER_APPS = 20;

export interface PageOptions {
  title: string;
  section: string;
  app?: AppRow | null;
  status?: ContentfulStatusCode;
}

/** A full console page: the layout around `body`, with the app switcher and the notice left by a redirect. */
export async function renderPage(c: ConsoleContext, options: PageOptions, body: Child) {
  const apps = await listApps(c.env.DB, { currentPage: 1, pageSize: SWITCHER_APPS + 1 }, { orderBy: "name" });
  const app = options.app ?? null;
  const context: PageContext = {
    session: c.get("session"),
    app: app && { app_id: String(app.app_id), name: app.name, default_language: app.default_language },
    apps: apps.rows.slice(0, SWITCHER_APPS).map((a) => ({ app_id: String(a.app_id), name: a.name })),
    moreApps: apps.rows.length > SWITCHER_APPS,
    section: options.section,
    notice: takeNotice(c),
    appNav: appNav(c.get("areaNav") ?? []),
  };
  return c.html(
    <ConsolePage context={context} title={options.title}>
      {body}
    </ConsolePage>,
    options.status ?? 200,
  );
}

export interface AppPageOptions {
  title: string;
  /** Links after the app's own (the app's dashboard comes first). */
  crumbs?: [string, string][];
  actions?: Child;
  lead?: Child;
  status?: ContentfulStatusCode;
}

/** A page of one app: its heading under the app's breadcrumb, in the app's navigation section. */
export function renderAppPage(c: ConsoleContext, app: AppRow, section: string, options: AppPageOptions, body: Child) {
  return renderPage(
    c,
    { title: `${options.title} · ${app.name}`, section, app, status: options.status },
    <>
      <PageHeader
        title={options.title}
        crumbs={[[`/console/apps/${app.app_id}`, app.name], ...(options.crumbs ?? [])]}
        actions={options.actions}
        lead={options.lead}
      />
      {body}
    </>,
  );
}

/** The page heading with its breadcrumb and the page's main actions. */
export function PageHeader(props: { title: string; crumbs?: [string, string][]; actions?: Child; lead?: Child }) {
  return (
    <header class="page-header">
      {props.crumbs && props.crumbs.length > 0 && (
        <nav aria-label="Breadcrumb" class="crumbs">
          {props.crumbs.map(([href, text]) => (
            <>
              <a href={href}>{text}</a> <span aria-hidden="true">/</span>{" "}
            </>
          ))}
        </nav>
      )}
      <div class="page-title">
        <h1>{props.title}</h1>
        {props.actions && <div class="actions">{props.actions}</div>}
      </div>
      {props.lead && <p class="lead">{props.lead}</p>}
    </header>
  );
}
