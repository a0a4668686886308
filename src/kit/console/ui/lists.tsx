import type { Child } from "hono/jsx";
import { fieldId } from "./forms";
import { utcText } from "../core/times";

/** Lists: a search box, a page of rows, paging by the admin API's currentPage/pageSize, and an empty state. */

export interface ListPage {
  currentPage: number;
  pageSize: number;
  total: number;
  search?: string;
}

/** `base` with the list's query (page, size, search) and `extra` parameters. */
export function listHref(
  base: string,
  list: { currentPage: number; pageSize: number; search?: string },
  extra: Record<string, string | undefined> = {},
) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(extra)) if (value) query.set(name, value);
  if (list.search) query.set("search", list.search);
  if (list.currentPage > 1) query.set("currentPage", String(list.currentPage));
  if (list.pageSize !== 25) query.set("pageSize", String(list.pageSize));
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

/**
 * A search box that narrows the list as one types: htmx asks the same URL and swaps only the
 * list (`#list`), keeping the box and its focus; without script it is a plain GET form.
 */
export function SearchForm(props: {
  action: string;
  value: string;
  label: string;
  placeholder?: string;
  hidden?: Record<string, string>;
}) {
  const id = fieldId("search");
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with the search role, as the <search> element is not in every browser studios use
    <form
      method="get"
      action={props.action}
      class="search"
      role="search"
      hx-get={props.action}
      hx-trigger="input changed delay:300ms from:find input[type=search], submit"
      hx-select="#list"
      hx-target="#list"
      hx-swap="outerHTML"
      hx-push-url="true"
    >
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <label for={id}>{props.label}</label>
      <input type="search" id={id} name="search" value={props.value} placeholder={props.placeholder} />
      <button type="submit" class="secondary">
        Search
      </button>
    </form>
  );
}

export function Pager(props: { base: string; list: ListPage; extra?: Record<string, string | undefined> }) {
  const { currentPage, pageSize, total } = props.list;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return <p class="pager muted">{total === 1 ? "1 item" : `${total} items`}</p>;
  const to = (page: number) => listHref(props.base, { ...props.list, currentPage: page }, props.extra);
  return (
    <nav class="pager" aria-label="Pages">
      {currentPage > 1 ? <a href={to(currentPage - 1)}>← Previous</a> : <span class="muted">← Previous</span>}
      <span>
        Page {currentPage} of {pages} · {total} items
      </span>
      {currentPage < pages ? <a href={to(currentPage + 1)}>Next →</a> : <span class="muted">Next →</span>}
    </nav>
  );
}

export function EmptyState(props: { children: Child }) {
  return <div class="empty">{props.children}</div>;
}

/** A table that scrolls inside its own box on a narrow screen, never the page. */
export function Table(props: { caption?: string; head: Child[]; children: Child; numeric?: number[] }) {
  return (
    <div class="table-wrap">
      <table>
        {props.caption && <caption>{props.caption}</caption>}
        <thead>
          <tr>
            {props.head.map((h, i) => (
              <th scope="col" class={props.numeric?.includes(i) ? "num" : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** A time in UTC, shown in the viewer's zone by console.js; the UTC value stays in the tooltip. */
/**
 * A time, written in the viewer's zone by the page's script. `seconds` for rows that may be
 * seconds apart (events, audit entries, deliveries), which would otherwise all read the same minute.
 */
export function Time(props: { iso: string | null | undefined; empty?: string; seconds?: boolean }) {
  if (!props.iso) return <span class="muted">{props.empty ?? "—"}</span>;
  const utc = utcText(props.iso);
  return (
    <time datetime={props.iso} title={utc} class="local-time" data-seconds={props.seconds ? "" : undefined}>
      {utc}
    </time>
  );
}

export function StatusBadge(props: { status: string }) {
  return <span class={`badge status-${props.status.replace(/[^a-z-]/g, "")}`}>{props.status}</span>;
}

/** A long value in a table cell cut in its middle, so that the table fits its panel; the whole value is its tooltip. */
export const shortened = (text: string, max = 48): string =>
  text.length <= max ? text : `${text.slice(0, max - 15)}…${text.slice(-14)}`;

/** An identifier or URL in a table cell: whole when short, else shortened with the whole value on hover. */
export function ShortCode(props: { text: string; max?: number }) {
  const shown = shortened(props.text, props.max);
  return <code title={shown === props.text ? undefined : props.text}>{shown}</code>;
}
