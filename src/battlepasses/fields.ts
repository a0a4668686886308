import { z } from "@hono/zod-openapi";

/**
 * A battle pass's configured fields as both answers show them, defined once: the admin API's
 * battle pass (./admin/schemas.ts) and the player's view of it (./schemas.ts) take them from here;
 * the admin input refines each with its limits and default, and the catalog document takes the
 * admin input made strict (./catalog-section.ts).
 */
export const battlePassShownFields = {
  battle_pass_priority: z.number().int(),
  package_sku_ios: z.string(),
  package_sku_android: z.string(),
  image_xs: z.string(),
  image_s: z.string(),
  image_m: z.string(),
  image_l: z.string(),
  image_xl: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  read_more_link: z.string(),
  is_unlocked_incrementally: z.boolean(),
};
