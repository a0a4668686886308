import { retryDelaySeconds } from "./backoff";

/**
 * What one HTTP attempt means for the delivery: any 2xx is success; 410 Gone means the receiver
 * asks never to be called again; everything else (no answer, 3xx, 4xx, 5xx) is retried. After the
 * last attempt the queue itself moves the retried message to the dead-letter queue.
 */
export type Decision = { kind: "succeeded" } | { kind: "gone" } | { kind: "retry"; delaySeconds: number };

export function decide(
  statusCode: number | null,
  attempt: number,
  baseSeconds: number,
  retryAfterSeconds: number | null,
): Decision {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { kind: "succeeded" };
  if (statusCode === 410) return { kind: "gone" };
  return { kind: "retry", delaySeconds: retryDelaySeconds(attempt, baseSeconds, retryAfterSeconds) };
}
