// The load generator's HTTP client: node:http on keep-alive sockets (no dependency, and cheaper per
// request than fetch, so that the generator takes as little of the shared CPU as possible).
import http from "node:http";
import { elapsedMs, summarize } from "./stats.mjs";

export function createClient(baseUrl, { maxSockets = 256 } = {}) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });

  /** One request; resolves {status, text, ms} (ms from sending to the last byte), never rejects on HTTP status. */
  function request(method, path, { token, body, timeoutMs = 60_000 } = {}) {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const headers = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (payload !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const start = process.hrtime.bigint();
      const req = http.request(
        { agent, host: url.hostname, port: url.port, method, path, headers, timeout: timeoutMs },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8"), ms: elapsedMs(start) }),
          );
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${path}`)));
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** A JSON call for seeding and checks: throws unless the status is one of `expect`. */
  async function json(method, path, { token, body, expect = [200, 201, 204] } = {}) {
    const r = await request(method, path, { token, body });
    let parsed;
    try {
      parsed = r.text ? JSON.parse(r.text) : undefined;
    } catch {
      parsed = r.text;
    }
    if (expect && !expect.includes(r.status)) {
      const err = new Error(`${method} ${path} answered ${r.status}: ${r.text.slice(0, 300)}`);
      err.status = r.status;
      err.body = parsed;
      throw err;
    }
    return { status: r.status, body: parsed };
  }

  return { baseUrl, request, json, close: () => agent.destroy() };
}

/**
 * Bounded closed-loop load: `concurrency` workers each send the next request as soon as their last
 * one answered, until `maxRequests` were sent or `maxMs` elapsed. `make(i)` builds request i
 * ({method, path, token, body}); `onResult(i, response)` may inspect each answer. A request counts as
 * ok on a 2xx. Throughput is ok answers per second of wall time.
 */
export async function runLoad(client, { concurrency, maxRequests, maxMs, make, onResult }) {
  let next = 0;
  let ok = 0;
  const failures = new Map();
  const latencies = [];
  const start = process.hrtime.bigint();
  const deadline = Date.now() + maxMs;
  const worker = async () => {
    while (next < maxRequests && Date.now() < deadline) {
      const i = next++;
      const { method, path, token, body } = make(i);
      try {
        const r = await client.request(method, path, { token, body });
        latencies.push(r.ms);
        if (r.status >= 200 && r.status < 300) ok++;
        else failures.set(r.status, (failures.get(r.status) ?? 0) + 1);
        onResult?.(i, r);
      } catch (err) {
        const key = String(err.code ?? err.message).slice(0, 60);
        failures.set(key, (failures.get(key) ?? 0) + 1);
        onResult?.(i, { status: 0, text: String(err), ms: NaN });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wallMs = elapsedMs(start);
  return {
    sent: next,
    ok,
    failures: Object.fromEntries(failures),
    wallMs,
    rps: (ok / wallMs) * 1000,
    latencies,
    ...summarize(latencies),
  };
}

/** Short unmeasured load first: sockets open, code paths and caches warm. Answers its load result. */
export function warmUp(client, { concurrency, make, onResult, count = 200, maxMs = 3000 }) {
  return runLoad(client, { concurrency, maxRequests: count, maxMs, make, onResult });
}
