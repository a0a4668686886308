/**
 * What the player's export must not carry: credentials. A webhook payload of challenge-changed
 * holds the player's access token (SCILL's `user_token`); it is left out with any other field
 * named like a secret.
 */
const CREDENTIAL_FIELD = /token|secret|password/i;

export function withoutCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCredentials);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !CREDENTIAL_FIELD.test(key))
      .map(([key, field]) => [key, withoutCredentials(field)]),
  );
}
