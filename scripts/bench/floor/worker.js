// The least a request can do on this runtime, for the benchmark's runtime floor:
//   GET /trivial         one D1 read (what the service's trivial route spends on its API key), JSON
//   GET /object?name=n   the same D1 read, then one read and one write in the SQLite Durable Object
//                        named n (the least an event does in its user's object), JSON
import { DurableObject } from "cloudflare:workers";

export class FloorObject extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
  }

  bump() {
    const sql = this.ctx.storage.sql;
    const n = (sql.exec("SELECT n FROM counter WHERE id = 1").toArray()[0]?.n ?? 0) + 1;
    sql.exec("INSERT INTO counter (id, n) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET n = excluded.n", n);
    return n;
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    await env.DB.prepare("SELECT ?1 AS path").bind(url.pathname).first();
    if (url.pathname === "/trivial") return Response.json({ status: 200 });
    const name = url.searchParams.get("name");
    if (url.pathname === "/object" && name) return Response.json({ n: await env.OBJECT.get(env.OBJECT.idFromName(name)).bump() });
    return Response.json({ status: 404 }, { status: 404 });
  },
};
