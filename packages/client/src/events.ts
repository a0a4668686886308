import { ApiError } from "./errors.js";
import type { components } from "./generated/schema.js";

export type EventPayload = components["schemas"]["EventPayload"];
export type EventResult = components["schemas"]["EventResult"];

/** The most events one batch request takes. */
export const MAX_BATCH = 500;

export interface SendEventsResult {
  /** One result per event, in the order given; `index` is the event's position in that list. */
  results: EventResult[];
  accepted: number;
  rejected: number;
}

type PostBatch = (events: EventPayload[]) => Promise<{ results: EventResult[] }>;

/**
 * Sends events in batches of at most 500, one after the other, and reports each event's result.
 * A batch that the service refuses as a whole (a 401, a 429 past the retries, a 5xx) gives each
 * of its events that answer's status and message; the following batches are still sent.
 */
export async function sendEventsInBatches(
  post: PostBatch,
  events: readonly EventPayload[],
  batchSize = MAX_BATCH,
): Promise<SendEventsResult> {
  const size = Math.min(MAX_BATCH, Math.max(1, Math.floor(batchSize)));
  const results: EventResult[] = [];
  for (let start = 0; start < events.length; start += size) {
    const batch = events.slice(start, start + size);
    try {
      const answer = await post(batch);
      for (const result of answer.results) results.push({ ...result, index: start + result.index });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      batch.forEach((_, i) => {
        const result: EventResult = { index: start + i, status: error.status, message: error.message };
        if (error.errors.length > 0) result.errors = error.errors;
        if (error.retry_after_seconds !== undefined) result.retry_after_seconds = error.retry_after_seconds;
        results.push(result);
      });
    }
  }
  const accepted = results.filter((r) => r.status >= 200 && r.status < 300).length;
  return { results, accepted, rejected: results.length - accepted };
}
