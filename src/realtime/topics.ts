import type { TopicRef } from "../changes/types";
import { timingSafeEqual, toHex } from "../shared/crypto";

/**
 * What a topic is about. Beyond the refs areas report, SCILL's user-challenge-topic-link hands out
 * a topic for one challenge of one user; its messages are the user's messages about that challenge.
 */
export type RealtimeTopicRef = TopicRef | { kind: "user-challenge"; appId: string; userId: string; challengeId: string };

const SEGMENT: Record<RealtimeTopicRef["kind"], string> = {
  "user-challenges": "challenges",
  "user-challenge": "challenge",
  "user-battle-pass": "battle-pass",
  leaderboard: "leaderboard",
};
const PREFIX = "gamification";
/** 128 bits: unguessable. */
const ID_HEX = 32;
/** 64 bits: enough that a made-up topic passes the check only by astronomical luck. */
const CHECK_HEX = 16;

const encoder = new TextEncoder();
let keyMemo: { secret: string; key: Promise<CryptoKey> } | undefined;

function hmacKey(secret: string): Promise<CryptoKey> {
  if (keyMemo?.secret !== secret) {
    const key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keyMemo = { secret, key };
  }
  return keyMemo.key;
}

async function mac(secret: string, message: string, hexChars: number): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message));
  return toHex(signature).slice(0, hexChars);
}

function refFields(ref: RealtimeTopicRef): string[] {
  switch (ref.kind) {
    case "user-challenges":
      return [ref.appId, ref.userId];
    case "user-challenge":
      return [ref.appId, ref.userId, ref.challengeId];
    case "user-battle-pass":
      return [ref.appId, ref.userId, ref.battlePassId];
    case "leaderboard":
      return [ref.appId, ref.leaderboardId];
  }
}

function topicSecret(env: Pick<Env, "TOPIC_SECRET">): string {
  if (!env.TOPIC_SECRET) throw new Error("TOPIC_SECRET is not configured");
  return env.TOPIC_SECRET;
}

/**
 * The topic of a ref: `gamification/<kind>/<id><check>`. The id is an HMAC of the ref, so the
 * topic is an unguessable capability that the service recomputes when it publishes (no lookup);
 * the check is an HMAC of the id, so the broker can tell a topic it issued from a made-up one
 * without knowing whose it is. Rotating TOPIC_SECRET invalidates every topic handed out.
 */
export async function topicName(env: Pick<Env, "TOPIC_SECRET">, ref: RealtimeTopicRef): Promise<string> {
  const secret = topicSecret(env);
  const segment = SEGMENT[ref.kind];
  // JSON keeps the fields unambiguous whatever characters a user id contains.
  const id = await mac(secret, `topic:${JSON.stringify([ref.kind, ...refFields(ref)])}`, ID_HEX);
  return `${PREFIX}/${segment}/${id}${await mac(secret, `check:${segment}/${id}`, CHECK_HEX)}`;
}

const TOPIC_PATTERN = new RegExp(`^${PREFIX}/(${Object.values(SEGMENT).join("|")})/([0-9a-f]{${ID_HEX}})([0-9a-f]{${CHECK_HEX}})$`);

/** Whether this service issued `topic`. Wildcard filters and foreign topics are never issued. */
export async function isIssuedTopic(env: Pick<Env, "TOPIC_SECRET">, topic: string): Promise<boolean> {
  const match = TOPIC_PATTERN.exec(topic);
  if (!match) return false;
  const [, segment, id, check] = match;
  return timingSafeEqual(await mac(topicSecret(env), `check:${segment}/${id}`, CHECK_HEX), check);
}
