import type { TopicRef } from "../changes/types";
import { timingSafeEqual, toHex } from "../shared/crypto";
import { topicSecret } from "../shared/secrets";
import { userObjectName } from "../user/names";

/**
 * What a topic is about. Beyond the refs areas report, SCILL's user-challenge-topic-link hands out
 * a topic for one challenge of one user; its messages are the user's messages about that challenge.
 */
export type RealtimeTopicRef =
  | TopicRef
  | { kind: "user-challenge"; appId: string; userId: string; challengeId: string };

const SEGMENT: Record<RealtimeTopicRef["kind"], string> = {
  "user-challenges": "challenges",
  "user-challenge": "challenge",
  "user-battle-pass": "battle-pass",
  leaderboard: "leaderboard",
  "league-cohort": "league",
  "user-notifications": "notifications",
};

/** Topics of no one user: their subscribers are known to the topic's own hub. */
const OWNERLESS_KINDS: readonly RealtimeTopicRef["kind"][] = ["leaderboard", "league-cohort"];
const PREFIX = "gamification";
/** 128 bits: unguessable. */
const ID_HEX = 32;
/** A Durable Object id. */
const OWNER_HEX = 64;
/** 64 bits: enough that a made-up topic passes the check only by astronomical luck. */
const CHECK_HEX = 16;

const encoder = new TextEncoder();
let keyMemo: { secret: string; key: Promise<CryptoKey> } | undefined;

function hmacKey(secret: string): Promise<CryptoKey> {
  if (keyMemo?.secret !== secret) {
    const key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
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
    case "league-cohort":
      return [ref.appId, ref.leagueId, ref.cohortId];
    case "user-notifications":
      return [ref.appId, ref.userId];
  }
}

/** What naming a topic needs: the secret, and the namespace of the users' objects (their ids). */
export type TopicEnv = Pick<Env, "TOPIC_SECRET"> & { USER: Pick<Env["USER"], "idFromName"> };

/** The id of the user's object, for a topic about one user; null for a leaderboard. */
function ownerOf(env: TopicEnv, ref: RealtimeTopicRef): string | null {
  if (OWNERLESS_KINDS.includes(ref.kind) || !("userId" in ref)) return null;
  return env.USER.idFromName(userObjectName(ref.appId, ref.userId)).toString();
}

/** Topics computed lately: every event of a user publishes to the same few. */
const TOPIC_MEMO_MAX = 10_000;
let topicMemo: { secret: string; topics: Map<string, string> } | undefined;

/**
 * The topic of a ref: `gamification/<kind>/<owner>/<id><check>`, without `<owner>/` for a
 * leaderboard. The id is an HMAC of the ref, so the topic is an unguessable capability that the
 * service recomputes when it publishes (no lookup). The owner is the id of the user's object: the
 * broker tells it when the topic gains or loses its subscribers, so that the user's events publish
 * only to topics somebody listens to (see watchers.ts). The check is an HMAC of the rest, so the
 * broker can tell a topic it issued from a made-up one without knowing whose it is. Rotating
 * TOPIC_SECRET invalidates every topic handed out.
 */
export async function topicName(env: TopicEnv, ref: RealtimeTopicRef): Promise<string> {
  const secret = topicSecret(env);
  if (topicMemo?.secret !== secret) topicMemo = { secret, topics: new Map() };
  const memo = topicMemo.topics;
  // JSON keeps the fields unambiguous whatever characters a user id contains.
  const message = `topic:${JSON.stringify([ref.kind, ...refFields(ref)])}`;
  const known = memo.get(message);
  if (known !== undefined) return known;
  const owner = ownerOf(env, ref);
  const body = `${SEGMENT[ref.kind]}/${owner === null ? "" : `${owner}/`}${await mac(secret, message, ID_HEX)}`;
  const topic = `${PREFIX}/${body}${await mac(secret, `check:${body}`, CHECK_HEX)}`;
  if (memo.size >= TOPIC_MEMO_MAX) memo.clear();
  memo.set(message, topic);
  return topic;
}

const USER_SEGMENTS = [
  SEGMENT["user-challenges"],
  SEGMENT["user-challenge"],
  SEGMENT["user-battle-pass"],
  SEGMENT["user-notifications"],
];
const TOPIC_PATTERN = new RegExp(
  `^${PREFIX}/((?:(?:${USER_SEGMENTS.join("|")})/([0-9a-f]{${OWNER_HEX}})|${SEGMENT.leaderboard}|${SEGMENT["league-cohort"]})/[0-9a-f]{${ID_HEX}})([0-9a-f]{${CHECK_HEX}})$`,
);

/** Whether this service issued `topic`. Wildcard filters and foreign topics are never issued. */
export async function isIssuedTopic(env: Pick<Env, "TOPIC_SECRET">, topic: string): Promise<boolean> {
  const match = TOPIC_PATTERN.exec(topic);
  if (!match) return false;
  const [, body, , check] = match;
  return timingSafeEqual(await mac(topicSecret(env), `check:${body}`, CHECK_HEX), check);
}

/** The id of the user's object that owns a topic of this shape (check it is issued first); null for a leaderboard. */
export function topicOwner(topic: string): string | null {
  return TOPIC_PATTERN.exec(topic)?.[2] ?? null;
}
