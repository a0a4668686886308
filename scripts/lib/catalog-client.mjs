// The catalog CLI's pieces (scripts/catalog.mjs) and `npm start`'s demo catalog: read a YAML or JSON
// document, put the environment's secrets in place of references, call the catalog API, and print a
// plan as a readable diff.
import { readFileSync, writeFileSync } from "node:fs";
import { parse, stringify } from "yaml";

export const SCHEMA_PATH = "/api/v1/public/catalog-schema.json";

/** A document from a file: YAML or JSON (YAML 1.2 reads both). */
export function readCatalogFile(file) {
  const text = readFileSync(file, "utf8");
  try {
    return parse(text, { prettyErrors: true });
  } catch (err) {
    throw new Error(`${file} is not valid YAML or JSON: ${err.message}`);
  }
}

/**
 * YAML for a `.yaml`/`.yml` file (with a schema comment editors follow), else JSON. String values
 * are quoted so that YAML 1.1 readers see the same (00:00:00 and dates stay strings).
 */
export function formatCatalog(doc, file, schemaUrl) {
  if (!/\.ya?ml$/i.test(file)) return `${JSON.stringify({ $schema: schemaUrl, ...doc }, null, 2)}\n`;
  const yaml = stringify(doc, { lineWidth: 0, defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" });
  return `# yaml-language-server: $schema=${schemaUrl}\n${yaml}`;
}

export function writeCatalogFile(file, doc, schemaUrl) {
  writeFileSync(file, formatCatalog(doc, file, schemaUrl));
}

/**
 * Each webhook `secret_key: {env: NAME}` becomes the variable's value when it is set. When it is
 * not, the reference goes as it is and the service keeps the endpoint's current secret (a new
 * endpoint gets a generated one). Answers the document to send and one note per unset variable.
 */
export function resolveSecrets(doc, env) {
  const notes = [];
  const webhooks = (doc?.webhooks ?? []).map((hook) => {
    const ref = hook?.secret_key;
    if (!ref || typeof ref !== "object" || typeof ref.env !== "string") return hook;
    const value = env[ref.env];
    if (value !== undefined && value !== "") return { ...hook, secret_key: value };
    notes.push(
      `webhook ${hook.key}: ${ref.env} is not set, so its current secret is kept (a new endpoint gets a generated one)`,
    );
    return hook;
  });
  return { doc: doc?.webhooks ? { ...doc, webhooks } : doc, notes };
}

/** One call of the catalog API; answers the parsed body, or throws with the service's message and field problems. */
export async function catalogCall({ url, token, appId, method, suffix = "", query = {}, body }) {
  const search = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v)
      .map(([k]) => [k, "true"]),
  );
  const target = `${url.replace(/\/+$/, "")}/api/v1/admin/apps/${encodeURIComponent(appId)}/catalog${suffix}${search.size ? `?${search}` : ""}`;
  const response = await fetch(target, {
    method,
    // X-Actor: the service's audit log tells the CLI's applies from other uses of the admin token.
    headers: {
      Authorization: `Bearer ${token}`,
      "X-Actor": "catalog CLI",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let answer;
  try {
    answer = text ? JSON.parse(text) : undefined;
  } catch {
    answer = text;
  }
  if (!response.ok) {
    const problems = (answer?.errors ?? []).map((e) => `  ${e.field}: ${e.problem}`).join("\n");
    const error = new Error(
      `${method} ${target} answered ${response.status}: ${answer?.message ?? text}${problems ? `\n${problems}` : ""}`,
    );
    error.status = response.status;
    throw error;
  }
  return answer;
}

const SIGNS = { create: "+", update: "~", delete: "-" };
const COLORS = { create: 32, update: 33, delete: 31, blocked: 31, unmanaged: 90 };

const show = (value) => (typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value ?? null));

/** A plan (or applied plan) as a diff a person reads: one line per object, one per changed field. */
export function formatPlan(answer, { color = false } = {}) {
  const paint = (kind, text) => (color ? `\u001b[${COLORS[kind]}m${text}\u001b[0m` : text);
  const width = Math.max(0, ...answer.changes.map((c) => c.object.length));
  const lines = [];
  for (const change of answer.changes) {
    lines.push(paint(change.action, `${SIGNS[change.action]} ${change.object.padEnd(width)}  ${change.ref}`));
    for (const f of change.fields) lines.push(`      ${f.field}: ${show(f.before)} -> ${show(f.after)}`);
  }
  for (const u of answer.unmanaged) {
    lines.push(
      paint("unmanaged", `  ${u.object.padEnd(width)}  ${u.ref}  (not in the document: kept; --prune deletes it)`),
    );
  }
  for (const b of answer.blocked) lines.push(paint("blocked", `! blocked ${b.ref}: ${b.problem}`));
  const s = answer.summary;
  const counts = answer.applied
    ? `Applied: ${s.create} created, ${s.update} updated, ${s.delete} deleted.`
    : `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete.`;
  if (lines.length > 0) lines.push("");
  lines.push(s.create + s.update + s.delete === 0 ? "No changes: the app already matches the document." : counts);
  if (s.unmanaged > 0) lines.push(`${s.unmanaged} object(s) of the app are not in the document and are kept.`);
  if (s.blocked > 0) {
    lines.push(`${s.blocked} change(s) would break running player state: apply refuses them unless --force.`);
  }
  return lines.join("\n");
}
