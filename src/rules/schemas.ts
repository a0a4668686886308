import { z } from "@hono/zod-openapi";
import { FILTER_OPS } from "./counter";

/** A meta data value as the admin API takes it in filters. */
const FilterValue = z.union([z.number().int(), z.string().max(500)]);

/** One condition of a counter (challenges, level challenges and leaderboards alike). */
export const CounterFilterInput = z
  .object({
    field: z.string().min(1).max(100),
    op: z.enum(FILTER_OPS),
    value: z.union([FilterValue, z.array(FilterValue).min(1).max(100)]),
  })
  .refine((f) => (f.op === "in") === Array.isArray(f.value), {
    message: "`in` takes a list, every other op one value",
    path: ["value"],
  })
  .openapi("CounterFilter");
