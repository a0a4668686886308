import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { baseUrl } from "./support";
import { sdkStudio } from "./sdk-studio";
import { wire } from "./sdk-wire";

/**
 * Contract of SCILL's PHP SDK (scillgame/scill-php 53684d9, lib/), Guzzle: what it sends
 * (sdk-clients.md) and what it reads. A backend points the generated APIs at this service with
 * `Configuration::setHost()`; SCILLClient hard-codes SCILL's hosts (SCILLClient.php:31-32).
 *
 * The last case runs the real SDK with PHP when it is there: `php` with curl and mbstring, Debian's
 * php-guzzlehttp-guzzle, and a checkout of scill-php named by SCILL_PHP_SDK (the SDK is not part of
 * this repository).
 */

/**
 * Every request: Accept and Content-Type application/json (HeaderSelector.php:48-58), the generator's User-Agent
 * (Configuration.php:90).
 */
const phpHeaders = (credential: string) => ({
  Authorization: `Bearer ${credential}`,
  Accept: "application/json",
  "Content-Type": "application/json",
  "User-Agent": "Swagger-Codegen/1.0.0/php",
});

describe("SCILL's PHP SDK against the service", () => {
  it("sends events with the API key and no auth, and acts with empty JSON bodies (SCILLClient.php:65-75, 124-131; EventsApi.php:521-588)", async () => {
    const studio = await sdkStudio("PHP wire");
    const minted = await wire(
      "POST",
      "/api/v1/auth/access-token",
      phpHeaders(studio.apiKey),
      JSON.stringify({ user_id: "php-player" }),
    );
    const token: string = minted.json.token;
    const personal = "/api/v1/challenges/personal";
    // Unlock (POST) and activate (PUT): no body, Content-Type application/json all the same (ChallengesApi.php).
    expect(
      (await wire("POST", `${personal}/unlock/${studio.appId}/${studio.challengeId}`, phpHeaders(token), "")).json,
    ).toMatchObject({ status: 200 });
    expect(
      (await wire("PUT", `${personal}/activate/${studio.appId}/${studio.challengeId}`, phpHeaders(token), "")).json,
    ).toMatchObject({ status: 200 });
    const event = await wire(
      "POST",
      "/api/v1/events",
      phpHeaders(studio.apiKey),
      JSON.stringify({
        event_name: "kill-enemy",
        user_id: "php-player",
        session_id: "s",
        meta_data: { amount: 2 },
      }),
    );
    expect(event.json).toEqual({ status: 200, message: "OK" });
    // GETs carry Content-Type application/json too; never refused for it.
    expect(
      (await wire("GET", `${personal}/get/${studio.appId}/${studio.challengeId}`, phpHeaders(token))).json,
    ).toMatchObject({ user_challenge_current_score: 2 });
    // unlockBattlePass without purchase data: an empty JSON body (BattlePassesApi.php:2466, 2659-2700).
    const unlocked = await wire(
      "POST",
      `/api/v1/battle-passes/${studio.appId}/unlock/${studio.passId}`,
      phpHeaders(token),
      "",
    );
    expect(unlocked.json).toMatchObject({ battle_pass_id: studio.passId, user_id: "php-player" });
    expect(unlocked.json.purchase_id).toMatch(/^\d+$/);
  });

  const sdk = process.env.SCILL_PHP_SDK;
  const runnable =
    sdk !== undefined &&
    existsSync(path.join(sdk, "lib/Api/EventsApi.php")) &&
    existsSync("/usr/share/php/GuzzleHttp/autoload.php");
  it.skipIf(!runnable)(
    "runs the real SDK with PHP: token, challenge actions, an event, reads, battle-pass unlock",
    async () => {
      const studio = await sdkStudio("PHP real client");
      const script = path.join(import.meta.dirname, "php/scill-php-client.php");
      const { stdout } = await promisify(execFile)(
        "php",
        [script, sdk!, baseUrl(), studio.apiKey, studio.appId, studio.challengeId, studio.passId, "php-real"],
        { timeout: 30_000 },
      );
      const out = JSON.parse(stdout);
      expect(out.token.ok.token).toMatch(/^eyJ/);
      expect(out.unlock.ok).toMatchObject({
        status: 200,
        challenge: { challenge_id: studio.challengeId, type: "unlocked" },
      });
      expect(out.activate.ok).toMatchObject({ status: 200, challenge: { type: "in-progress" } });
      expect(out.event.ok).toEqual({ status: 200, message: "OK" });
      expect(out.challenge.ok).toMatchObject({
        challenge_id: studio.challengeId,
        type: "in-progress",
        user_challenge_current_score: 2,
      });
      expect(out.categories.ok[0]).toMatchObject({
        category_position: 0,
        challenges: [{ challenge_id: studio.challengeId }],
      });
      expect(out.unlock_pass.ok).toMatchObject({
        battle_pass_id: studio.passId,
        user_id: "php-real",
        purchase_id: expect.stringMatching(/^\d+$/),
      });
    },
  );
});
