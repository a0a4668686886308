import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ChallengesApi, Configuration, EventsApi } from "@scillgame/scill-js";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServerOnFreePort } from "../../scripts/lib/dev-server.mjs";
import { TEST_SECRETS } from "../support/secrets";
import { E2E_VARS } from "./global-setup";
import { eventually } from "./support";

// A whole studio's session against its own `wrangler dev`, every request logged (LOG_SAMPLE_RATE=1),
// and every byte the server printed captured: no credential or secret may appear in it.
let server: Awaited<ReturnType<typeof startDevServerOnFreePort>>;
let persistTo: string;
let output = "";

beforeAll(async () => {
  persistTo = mkdtempSync(path.join(tmpdir(), "gamification-logs-"));
  const vars = { ...TEST_SECRETS, ...E2E_VARS, LOG_SAMPLE_RATE: "1" };
  server = await startDevServerOnFreePort({
    persistTo,
    vars,
    quiet: true,
    localTraces: false,
    onOutput: (chunk) => (output += chunk),
  });
});

afterAll(async () => {
  await server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
});

async function call(method: string, urlPath: string, token?: string, body?: unknown) {
  const response = await fetch(`${server.url}${urlPath}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { "Content-Type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    requestId: response.headers.get("X-Request-Id"),
  };
}

/** A webhook receiver that refuses the first call (a retry, a failed attempt) and takes the rest. */
async function webhookReceiver() {
  const calls: string[] = [];
  const receiver = createServer((req, res) => {
    calls.push(req.url!);
    res.writeHead(calls.length === 1 ? 503 : 200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  return {
    calls,
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    close: () => new Promise((r) => receiver.close(r)),
  };
}

describe("the server's logs over a full session", () => {
  it("hold no credential, secret or topic, and name the request ids clients saw", async () => {
    const admin = TEST_SECRETS.ADMIN_TOKEN;
    const webhookSecret = "whsec-logs-test-0123456789";
    const receiver = await webhookReceiver();
    const seenIds: string[] = [];
    const expectStatus = async (status: number, pending: ReturnType<typeof call>) => {
      const r = await pending;
      expect(r.status).toBe(status);
      seenIds.push(r.requestId!);
      return r.body;
    };

    // The studio configures its app.
    const app = await expectStatus(201, call("POST", "/api/v1/admin/apps", admin, { name: "Logged studio" }));
    const key = (
      await expectStatus(201, call("POST", `/api/v1/admin/apps/${app.app_id}/api-keys`, admin, { name: "server" }))
    ).key as string;
    const category = await expectStatus(
      201,
      call("POST", `/api/v1/admin/apps/${app.app_id}/challenge-categories`, admin, {
        category_slug: "daily",
        category_name: "Daily",
      }),
    );
    await expectStatus(
      201,
      call("POST", `/api/v1/admin/apps/${app.app_id}/challenges`, admin, {
        category_id: category.category_id,
        challenge_name: "Kill 3",
        challenge_goal: 3,
        event_name: "kill-enemy",
        is_auto_activated: true,
      }),
    );
    await expectStatus(
      201,
      call("POST", `/api/v1/admin/apps/${app.app_id}/leaderboards`, admin, { name: "Kills", event_name: "kill-enemy" }),
    );
    await expectStatus(
      201,
      call("POST", `/api/v1/admin/apps/${app.app_id}/webhooks`, admin, {
        webhook_type: "challenge-changed",
        url: receiver.url,
        secret_key: webhookSecret,
      }),
    );

    // A game server mints a token; the game plays through the SCILL SDK and listens over MQTT.
    const token = (
      await expectStatus(200, call("POST", "/api/v1/auth/access-token", key, { user_id: "logged-player" }))
    ).token as string;
    const sdk = new Configuration({ accessToken: token, apiKey: "access_token", basePath: server.url });
    await new ChallengesApi(sdk).getAllPersonalChallenges(app.app_id);
    const topic = (await expectStatus(200, call("GET", "/api/v1/auth/user-challenges-topic-link", token)))
      .topic as string;
    const wsUrl = `${server.url.replace(/^http/, "ws")}/mqtt`;
    const byUrl = await mqtt.connectAsync(`${wsUrl}?token=${token}`, { reconnectPeriod: 0 });
    const byPassword = await mqtt.connectAsync(wsUrl, {
      reconnectPeriod: 0,
      username: "logged-player",
      password: token,
    });
    await byPassword.subscribeAsync(topic, { qos: 1 });
    const pushed = new Promise((resolve) => byPassword.once("message", resolve));
    await new EventsApi(sdk).sendEvent({
      event_name: "kill-enemy",
      event_type: "single",
      session_id: "s1",
      meta_data: { amount: 1 },
    });
    await expectStatus(
      200,
      call("POST", "/api/v1/events", key, {
        user_id: "logged-player",
        event_name: "kill-enemy",
        meta_data: { amount: 1 },
      }),
    );
    await pushed;
    await expectStatus(200, call("GET", `/api/v1/leaderboards-members/user/logged-player`, token));

    // Wrong credentials and unknown paths, a query carrying a token among them.
    await expectStatus(401, call("GET", "/api/v1/admin/apps", `${admin}-wrong`));
    await expectStatus(
      401,
      call("POST", "/api/v1/events", "gk_not-a-real-key-0123456789", { user_id: "x", event_name: "kill-enemy" }),
    );
    await expectStatus(401, call("GET", "/api/v1/user-additional-info", `${token.slice(0, -4)}AAAA`));
    await expectStatus(404, call("GET", `/api/v1/nowhere?token=${token}&secret_key=${webhookSecret}`));
    await expectStatus(200, call("GET", "/api/v1/admin/status", admin));

    // The webhook is refused once, then delivered with its secret in the URL.
    await eventually(async () => (receiver.calls.length >= 2 ? true : undefined), 20_000, "the webhook retry");
    expect(receiver.calls[1]).toContain(`secret_key=${webhookSecret}`);
    await Promise.all([byUrl.endAsync(true), byPassword.endAsync(true), receiver.close()]);
    await server.stop();

    const credentials = {
      "admin token": admin,
      "API key": key,
      "access token": token,
      "topic (a capability)": topic,
      "webhook secret": webhookSecret,
      "topic secret": TEST_SECRETS.TOPIC_SECRET,
      ...Object.fromEntries(
        (JSON.parse(TEST_SECRETS.JWT_SIGNING_KEYS) as { kid: string; secret: string }[]).map((k) => [
          `signing secret ${k.kid}`,
          k.secret,
        ]),
      ),
    };
    const leaked = Object.entries(credentials)
      .filter(([, secret]) => output.includes(secret))
      .map(([what]) => what);
    expect(leaked).toEqual([]);
    // Nor anything shaped like a key or a token, including the wrong ones sent above.
    expect(output.match(/gk_[A-Za-z0-9_-]{8,}/g)).toBeNull();
    expect(output.match(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g)).toBeNull();
    // The lines are there: every request id a client saw is in the output.
    expect(seenIds.filter((id) => !output.includes(`request_id: '${id}'`))).toEqual([]);
  });
});
