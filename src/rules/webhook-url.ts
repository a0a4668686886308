/** Longest accepted endpoint URL. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** 127.0.0.0/8, localhost and [::1]: the only plain-http targets, and only in local development. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]") return true;
  // URL parsing has already normalised IPv4 spellings such as 127.1 or 0x7f.0.0.1.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why a URL may not receive webhooks, or null when it may. Used for endpoints and per-level URLs. */
export function webhookUrlProblem(raw: string, allowLoopback: boolean): string | null {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && allowLoopback && isLoopbackHost(url.hostname)) return null;
  return allowLoopback ? "must use https (plain http only to a loopback address)" : "must use https";
}

/**
 * The URL called: the configured one with `secret_key` appended as the spec asks. An existing
 * query is kept as it is (not re-encoded); a fragment is never sent.
 */
export function withSecretKey(raw: string, secret: string): string {
  const url = new URL(raw);
  url.hash = "";
  const param = `secret_key=${encodeURIComponent(secret)}`;
  url.search = url.search.length > 1 ? `${url.search}&${param}` : param;
  return url.toString();
}
