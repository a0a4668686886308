import { timingSafeEqual } from "../../shared/crypto";

/**
 * Console passwords: PBKDF2-SHA256 from WebCrypto with a random salt per user. The Workers
 * runtime derives with at most 100,000 iterations, which is therefore both the least the console
 * accepts and the most the platform allows. The iteration count is stored with the hash, so a
 * later change of cost keeps old hashes verifiable.
 */
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const KEY_BITS = 256;
const SCHEME = "pbkdf2-sha256";

const encoder = new TextEncoder();
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, KEY_BITS);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return [SCHEME, iterations, toBase64(salt), toBase64(await derive(password, salt, iterations))].join("$");
}

/** Whether `password` matches `stored`; a malformed stored hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterationsText);
  if (
    scheme !== SCHEME ||
    !Number.isInteger(iterations) ||
    iterations < 1 ||
    iterations > PBKDF2_ITERATIONS ||
    !saltText ||
    !hashText
  ) {
    return false;
  }
  const derived = await derive(password, fromBase64(saltText), iterations);
  return timingSafeEqual(toBase64(derived), hashText);
}

/**
 * A hash no password matches, derived at full cost: checking a sign-in for an unknown email
 * against it takes as long as for a known one, so timing does not tell which emails exist.
 */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword(crypto.getRandomValues(new Uint8Array(24)).join(",")));
