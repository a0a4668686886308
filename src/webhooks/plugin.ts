import type { AreaPlugin } from "../kit/area";
import { webhooksAdmin } from "./admin/routes";
import { webhookCatalogSection } from "./catalog-section";
import { webhookPages } from "./console/pages";
import { inApp } from "../kit/console/ui/nav";
import { pruneDeliveryLog } from "./deliveries-repo";

/** The webhooks channel's part as an area: its admin routes, its section of the catalog, its log's retention. */
export const webhooksPlugin: AreaPlugin = {
  name: "webhooks",
  routes: () => [webhooksAdmin],
  cron: { "delivery-log-retention": (env, now) => pruneDeliveryLog(env.DB, now) },
  catalog: webhookCatalogSection,
  console: {
    pages: () => [webhookPages],
    nav: [{ section: "webhooks", label: "Webhooks", href: inApp("/webhooks") }],
  },
};
