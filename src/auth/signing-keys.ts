import { z } from "zod";

export interface SigningKey {
  kid: string;
  key: Uint8Array;
}

const SigningKeysSchema = z
  .array(z.object({ kid: z.string().min(1), secret: z.string().min(32) }))
  .min(1);

let memo: { raw: string; keys: SigningKey[] } | undefined;

/**
 * JWT_SIGNING_KEYS is a JSON array, newest first. New tokens are signed with the first key; a
 * token verifies with whichever key its `kid` names, so rotating is: prepend a new key, wait for
 * old tokens to expire, remove the old key.
 */
export function signingKeys(raw: string | undefined): SigningKey[] {
  if (memo && memo.raw === raw) return memo.keys;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? "");
  } catch {
    throw new Error("JWT_SIGNING_KEYS must be a JSON array of {kid, secret}");
  }
  const keys = SigningKeysSchema.parse(parsed).map((k) => ({ kid: k.kid, key: new TextEncoder().encode(k.secret) }));
  memo = { raw: raw ?? "", keys };
  return keys;
}
