import type { WebhookType } from "../../changes/types";

export interface EndpointRef {
  webhookId: string;
  webhookType: WebhookType;
  enabled: boolean;
}

export interface Target {
  webhookId: string;
  overrideUrl: string | null;
}

/**
 * Where one change goes. Normally: every enabled endpoint of the app for the change's type.
 * A per-level reward URL (`overrideUrl`) takes precedence: the change goes there only, signed and
 * given `secret_key` with the secret of the app's first endpoint of that type (lowest id), which
 * therefore must exist; the level's URL carries no secret of its own. An app without an endpoint
 * for the type gets nothing.
 */
export function deliveryTargets(endpoints: EndpointRef[], type: WebhookType, overrideUrl?: string | null): Target[] {
  const ofType = endpoints.filter((e) => e.webhookType === type);
  if (ofType.length === 0) return [];
  if (overrideUrl) {
    const secretHolder = ofType.reduce((a, b) => (Number(b.webhookId) < Number(a.webhookId) ? b : a));
    return [{ webhookId: secretHolder.webhookId, overrideUrl }];
  }
  return ofType.filter((e) => e.enabled).map((e) => ({ webhookId: e.webhookId, overrideUrl: null }));
}
