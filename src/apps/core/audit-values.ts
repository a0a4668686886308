/**
 * What an audit entry keeps of an object: its JSON with every secret replaced, so that the log can
 * be read by anyone who may read configuration without handing out webhook secrets, keys, tokens or
 * passwords. A field counts as secret by its name; its value is never written, only whether it
 * changed.
 */
const SECRET_FIELD = /secret|password|token|hash/i;

export const REDACTED = "[redacted]";
export const REDACTED_CHANGED = "[redacted, changed]";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The object as JSON, with secret fields redacted at any depth. */
export function redactSecrets(value: unknown): Json {
  const json = value === undefined ? null : (JSON.parse(JSON.stringify(value)) as Json);
  return redact(json, null);
}

/**
 * `before` and `after` of one change, redacted. A secret that differs between them reads
 * "[redacted, changed]" in `after`, so the log says that a secret changed without saying it.
 */
export function auditValues(before: unknown, after: unknown): { before: Json; after: Json } {
  const original = before === undefined ? null : (JSON.parse(JSON.stringify(before)) as Json);
  const changed = after === undefined ? null : (JSON.parse(JSON.stringify(after)) as Json);
  return { before: redact(original, null), after: redact(changed, original) };
}

function redact(value: Json, counterpart: Json | undefined): Json {
  if (Array.isArray(value))
    return value.map((item, i) => redact(item, Array.isArray(counterpart) ? counterpart[i] : undefined));
  if (value === null || typeof value !== "object") return value;
  const other =
    counterpart !== null && typeof counterpart === "object" && !Array.isArray(counterpart) ? counterpart : null;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      if (!SECRET_FIELD.test(key) || field === null) return [key, redact(field, other?.[key])];
      const changed = other !== null && key in other && JSON.stringify(other[key]) !== JSON.stringify(field);
      return [key, changed ? REDACTED_CHANGED : REDACTED];
    }),
  );
}
