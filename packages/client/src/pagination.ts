/** A page of an admin list: `{items, currentPage, pageSize, total}`. */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Every item of a list paged with `currentPage` and `pageSize` (the admin lists), page after page
 * until `total` items were read or a page comes back empty.
 *
 *     for await (const app of pages((page) => admin.get("/api/v1/admin/apps", { params: { query: page } }))) ...
 */
export async function* pages<T>(
  fetchPage: (page: { currentPage: number; pageSize: number }) => Promise<Page<T>>,
  options: { pageSize?: number } = {},
): AsyncGenerator<T, void, undefined> {
  const pageSize = options.pageSize ?? 100;
  let seen = 0;
  for (let currentPage = 1; ; currentPage++) {
    const page = await fetchPage({ currentPage, pageSize });
    yield* page.items;
    seen += page.items.length;
    if (page.items.length === 0 || seen >= page.total) return;
  }
}

/**
 * Every item of a list read by cursor: `fetchPage(after)` answers a page and the cursor of the next
 * one (`undefined` or `null` at the end); the first call gets `undefined`.
 *
 *     for await (const file of cursor(async (after) => {
 *       const page = await admin.get("/api/v1/admin/apps/{appId}/analytics/event-files", { params: { path: { appId }, query: { from, to, after } } });
 *       return { items: page.files, next: page.next_after };
 *     })) ...
 */
export async function* cursor<T>(
  fetchPage: (after: string | undefined) => Promise<{ items: T[]; next?: string | null }>,
): AsyncGenerator<T, void, undefined> {
  let after: string | undefined;
  for (;;) {
    const page = await fetchPage(after);
    yield* page.items;
    if (page.next === undefined || page.next === null || page.next === after) return;
    after = page.next;
  }
}
