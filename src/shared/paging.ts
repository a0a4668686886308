import { z } from "@hono/zod-openapi";

export const MAX_PAGE_SIZE = 100;

/** `currentPage` from 1 (default 1) and `pageSize` 1..100 (default 25), as the spec's leaderboards page. */
export const PagingQuery = z.object({
  currentPage: z.coerce.number().int().min(1).default(1).openapi({ example: 1 }),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(25).openapi({ example: 25 }),
});

export type Paging = z.infer<typeof PagingQuery>;

export const pageOffset = (p: Paging) => (p.currentPage - 1) * p.pageSize;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    currentPage: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  });
