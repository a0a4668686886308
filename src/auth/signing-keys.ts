import { z } from "zod";
import { DEVELOPMENT_SECRET_VALUES, isDevelopment, secretNotConfigured } from "../shared/secrets";

export interface SigningKey {
  kid: string;
  key: Uint8Array;
}

const SigningKeysSchema = z.array(z.object({ kid: z.string().min(1), secret: z.string().min(32) })).min(1);

type KeysEnv = Pick<Env, "JWT_SIGNING_KEYS"> & { ENVIRONMENT?: string };

let memo: { raw: string; development: boolean; keys: SigningKey[] } | undefined;

/**
 * What is wrong with JWT_SIGNING_KEYS, or null. Outside development the published development key
 * is refused too: with it anyone could mint tokens for any user.
 */
export function signingKeysProblem(env: KeysEnv): string | null {
  return readKeys(env).problem;
}

function readKeys(env: KeysEnv): { keys: SigningKey[]; problem: null } | { keys: null; problem: string } {
  const raw = env.JWT_SIGNING_KEYS;
  if (!raw) return { keys: null, problem: "is not set" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const result = SigningKeysSchema.safeParse(parsed);
  if (!result.success)
    return { keys: null, problem: "must be a JSON array of {kid, secret}, each secret at least 32 characters" };
  if (!isDevelopment(env) && result.data.some((k) => k.secret === DEVELOPMENT_SECRET_VALUES.JWT_SIGNING_SECRET)) {
    return { keys: null, problem: "holds the development signing secret" };
  }
  return { keys: result.data.map((k) => ({ kid: k.kid, key: new TextEncoder().encode(k.secret) })), problem: null };
}

/**
 * JWT_SIGNING_KEYS is a JSON array, newest first. New tokens are signed with the first key; a
 * token verifies with whichever key its `kid` names, so rotating is: prepend a new key, wait for
 * old tokens to expire, remove the old key. Without usable keys, every path that mints or checks
 * an access token answers 503 naming the secret.
 */
export function signingKeys(env: KeysEnv): SigningKey[] {
  const raw = env.JWT_SIGNING_KEYS ?? "";
  const development = isDevelopment(env);
  if (memo && memo.raw === raw && memo.development === development) return memo.keys;
  const read = readKeys(env);
  if (read.problem !== null) throw secretNotConfigured("JWT_SIGNING_KEYS", read.problem);
  memo = { raw, development, keys: read.keys };
  return read.keys;
}
