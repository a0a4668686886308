import { WEBHOOK_TYPES, type WebhookType } from "../../changes/types";

/** The spec spells the leaderboard type `leaderoard-updated`; the correct spelling is accepted too. */
const ALIASES = { "leaderboard-updated": "leaderoard-updated" } as const satisfies Record<string, WebhookType>;

export const ACCEPTED_WEBHOOK_TYPES = [
  ...WEBHOOK_TYPES,
  ...(Object.keys(ALIASES) as (keyof typeof ALIASES)[]),
] as const;
export type AcceptedWebhookType = (typeof ACCEPTED_WEBHOOK_TYPES)[number];

/** The spelling stored and sent. */
export function canonicalWebhookType(type: AcceptedWebhookType): WebhookType {
  return type in ALIASES ? ALIASES[type as keyof typeof ALIASES] : (type as WebhookType);
}
