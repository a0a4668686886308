/**
 * A self-contained API reference rendered from the OpenAPI document: no script or stylesheet
 * from a CDN, so it reads the same offline, in local development and behind strict CSPs.
 */
type Json = Record<string, any>;

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const METHODS = ["get", "post", "put", "delete", "patch"] as const;

function schemaText(schema: Json | undefined, doc: Json): string {
  if (!schema) return "";
  const resolved = schema.$ref ? doc.components?.schemas?.[schema.$ref.split("/").pop()] : schema;
  const name = schema.$ref ? schema.$ref.split("/").pop() : undefined;
  return `${name ? `<div class="schema-name">${escapeHtml(name)}</div>` : ""}<pre>${escapeHtml(JSON.stringify(resolved ?? schema, null, 2))}</pre>`;
}

function operationHtml(path: string, method: string, op: Json, doc: Json): string {
  const params = (op.parameters ?? [])
    .map((p: Json) => `<li><code>${escapeHtml(p.name)}</code> (${p.in}${p.required ? ", required" : ""})${p.description ? ` ${escapeHtml(p.description)}` : ""}</li>`)
    .join("");
  const security = (op.security ?? []).flatMap((s: Json) => Object.keys(s)).join(" or ");
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]: [string, any]) => `<li><b>${status}</b> ${escapeHtml(r.description ?? "")}${schemaText(r.content?.["application/json"]?.schema, doc)}</li>`)
    .join("");
  return `<details class="op"><summary><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> ${escapeHtml(op.summary ?? "")}</summary>
${security ? `<p>Credential: ${escapeHtml(security)}</p>` : ""}${params ? `<p>Parameters</p><ul>${params}</ul>` : ""}
${body ? `<p>Request body</p>${schemaText(body, doc)}` : ""}<p>Responses</p><ul>${responses}</ul></details>`;
}

export function renderReference(doc: Json): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op, doc)]);
    }
  }
  const sections = [...byTag.entries()]
    .map(([tag, ops]) => `<section><h2 id="${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${ops.join("\n")}</section>`)
    .join("\n");
  const toc = [...byTag.keys()].map((t) => `<a href="#${escapeHtml(t)}">${escapeHtml(t)}</a>`).join(" · ");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font-family:ui-monospace,monospace}pre{background:#f6f8fa;padding:.6rem;overflow:auto;font-size:12px}
.op{border:1px solid #ddd;border-radius:6px;margin:.4rem 0;padding:.3rem .6rem}.m{display:inline-block;min-width:4.5em;font-weight:700}
.get{color:#0a7}.post{color:#07c}.put{color:#a60}.delete{color:#c22}.schema-name{font-weight:600;margin-top:.3rem}</style></head>
<body><h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1><p>${escapeHtml(doc.info.description ?? "")}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a></p><nav>${toc}</nav>${sections}</body></html>`;
}
