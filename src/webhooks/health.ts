import type { DeliveryStatus } from "./deliveries-repo";

/** How an app's webhook deliveries that changed since `sinceIso` stand: delivered, still trying, given up. */
export async function deliveryHealth(
  db: D1Database,
  appId: number,
  sinceIso: string,
): Promise<Record<DeliveryStatus, number>> {
  const rows = await db
    .prepare(
      "SELECT status, COUNT(*) AS n FROM webhook_deliveries WHERE app_id = ? AND updated_at >= ? GROUP BY status",
    )
    .bind(appId, sinceIso)
    .all<{ status: DeliveryStatus; n: number }>();
  const counts: Record<DeliveryStatus, number> = { pending: 0, succeeded: 0, failed: 0 };
  for (const row of rows.results) counts[row.status] = row.n;
  return counts;
}
