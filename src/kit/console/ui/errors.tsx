import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError, toApiError } from "../../../shared/errors";
import { DomainError } from "../../../shared/domain-errors";
import type { ConsoleContext } from "../http";
import { PageHeader, renderPage } from "./render";

const TITLES: Partial<Record<number, string>> = {
  400: "That did not work",
  403: "Not allowed",
  404: "Not found",
  409: "Not possible right now",
  413: "Too large",
};

/**
 * Every error of a console page as a page (never JSON, never a bare 500): the status, what went
 * wrong and a way on. htmx puts it in place of the page's content, whatever the request targeted.
 */
/** Hono's own refusals whose message is not for people: the body limit's. */
const HONO_MESSAGES: Record<number, string> = { 413: "The request is too large." };

export async function errorPage(err: Error, c: ConsoleContext) {
  let status: ContentfulStatusCode = 500;
  let message = "Something went wrong on our side. The error is logged; please try again.";
  if (err instanceof DomainError) err = toApiError(err);
  if (err instanceof ApiError) [status, message] = [err.status, err.message];
  else if (err instanceof HTTPException)
    [status, message] = [err.status as ContentfulStatusCode, HONO_MESSAGES[err.status] ?? err.message];
  else console.error("console error", c.req.method, c.req.path, err);
  c.header("HX-Retarget", "#main");
  c.header("HX-Reselect", "#main");
  c.header("HX-Reswap", "outerHTML");
  const title = TITLES[status] ?? "Error";
  if (!c.get("session")) return c.html(`<!DOCTYPE html><title>${title}</title><p>${escapeText(message)}</p>`, status);
  try {
    return await renderPage(
      c,
      { title, section: "", status },
      <NotFoundBody title={title} message={message} status={status} />,
    );
  } catch (renderError) {
    console.error("console error page failed", renderError);
    return c.text(message, status);
  }
}

function NotFoundBody(props: { title: string; message: string; status: number }) {
  return (
    <section class="error-page">
      <PageHeader title={props.title} />
      <p class="notice notice-error" role="alert">
        {props.message}
      </p>
      <p class="muted">Status {props.status}.</p>
      <p>
        <a href="/console">Go to the apps</a>
      </p>
    </section>
  );
}

const escapeText = (text: string) => text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
