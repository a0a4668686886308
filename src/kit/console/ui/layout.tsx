import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { CONSOLE_NAV } from "./nav";
import { Page, usePage, type PageContext } from "./context";
import { may } from "../core/roles";
import { CsrfField } from "./forms";
import { ASSET_URLS } from "../../../shared/asset-urls.generated";

/**
 * htmx settings: no eval and no inline styles (the CSP allows neither; settling copies no style
 * attribute, which the browser refuses), history restored by a
 * full load rather than from a localStorage copy (pages may show a new API key once), and every
 * answer swapped, so that a 4xx page (a refused action, a form with errors) is shown, not dropped.
 */
const HTMX_CONFIG = JSON.stringify({
  allowEval: false,
  includeIndicatorStyles: false,
  attributesToSettle: ["class", "width", "height"],
  historyCacheSize: 0,
  refreshOnHistoryMiss: true,
  responseHandling: [
    { code: "204", swap: false },
    { code: "...", swap: true },
  ],
});

/** The HTML document around any console page, the sign-in page included (standards mode: the doctype). */
export function Document(props: { title: string; children: Child; bodyClass?: string }) {
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <meta name="htmx-config" content={HTMX_CONFIG} />
          <link rel="icon" href="data:," />
          <title>{`${props.title} · Open Gamification`}</title>
          <link rel="stylesheet" href={ASSET_URLS["console.css"]} />
          <script src={ASSET_URLS["htmx.min.js"]} defer></script>
          <script type="module" src={ASSET_URLS["console.js"]}></script>
        </head>
        <body class={props.bodyClass} hx-boost="true">
          {props.children}
        </body>
      </html>
    </>
  );
}

function AppSwitcher() {
  const { app, apps, moreApps } = usePage();
  return (
    <details class="switcher">
      <summary>
        <span class="switcher-label">App</span> {app ? app.name : "Choose an app"}
      </summary>
      <ul>
        {apps.map((a) => (
          <li>
            <a href={`/console/apps/${a.app_id}`} aria-current={app?.app_id === a.app_id ? "page" : undefined}>
              {a.name} <span class="muted">#{a.app_id}</span>
            </a>
          </li>
        ))}
        <li>
          <a href="/console">{moreApps ? "All apps…" : "Manage apps"}</a>
        </li>
      </ul>
    </details>
  );
}

function Sidebar() {
  const { app, section, session, appNav } = usePage();
  return (
    <nav class="sidebar" id="sidebar" aria-label="Console">
      {app && (
        <>
          <p class="nav-heading">{app.name}</p>
          <ul>
            {appNav
              .filter((e) => !e.permission || may(session.role, e.permission))
              .map((e) => (
                <li>
                  <a href={e.href(app.app_id)} aria-current={section === e.section ? "page" : undefined}>
                    {e.label}
                  </a>
                </li>
              ))}
          </ul>
        </>
      )}
      <p class="nav-heading">Console</p>
      <ul>
        {CONSOLE_NAV.filter((e) => !e.permission || may(session.role, e.permission)).map((e) => (
          <li>
            <a href={e.href} aria-current={section === e.section ? "page" : undefined}>
              {e.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function UserCorner() {
  const { session } = usePage();
  return (
    <div class="user">
      <span class="user-name" title={`Signed in as ${session.label} (${session.role})`}>
        {session.label} <span class={`badge role-${session.role}`}>{session.role}</span>
      </span>
      <form method="post" action="/console/sign-out" class="inline">
        <CsrfField />
        <button type="submit" class="link">
          Sign out
        </button>
      </form>
    </div>
  );
}

/** A notice left by the previous action: fixed in a corner, so it never moves the page. */
function NoticeToast() {
  const { notice } = usePage();
  if (!notice) return null;
  return (
    <div class={`toast toast-${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
      {notice.text}
    </div>
  );
}

/** A console page: the top bar (menu, app switcher, user), the left navigation and the content. */
export function ConsolePage(props: { context: PageContext; title: string; children: Child }) {
  return (
    <Page.Provider value={props.context}>
      <Document title={props.title}>
        <header class="topbar">
          <button type="button" class="menu-button" aria-controls="sidebar" aria-expanded="false">
            Menu
          </button>
          <a class="brand" href="/console">
            Open Gamification
          </a>
          <AppSwitcher />
          <UserCorner />
        </header>
        <div class="shell">
          <Sidebar />
          <main id="main">
            <NoticeToast />
            {props.children}
          </main>
        </div>
      </Document>
    </Page.Provider>
  );
}
