// The least a request can do on this runtime, for the benchmark's runtime floor:
//   GET /nothing                no I/O, JSON (with /trivial: what one D1 round trip adds to a request; the
//                               floor's trivial route for access tokens, which the service checks without I/O)
//   GET /trivial                one D1 read (what the service's trivial route spends on its API key), JSON
//   GET /object?name=n          the same D1 read, then one read and one write in the SQLite Durable Object
//                               named n (the least an event does in its user's object), JSON
//   GET /object?name=n&send=1   the same, then the object puts one message of about an event's size on a
//                               queue whose consumer only acknowledges it (the least an event costs that
//                               is handed on to background work, as every accepted event is)
//   GET /object?name=n&outbox=1 the same with an outbox: the message is also written as a row with the
//                               object's write, and that row deleted once the queue took the message, in
//                               a second commit (the least a hand-off costs that a reset object cannot lose)
//   GET /object-text?name=n&size=s   the same D1 read, then one read in object n, which answers a JSON
//                               text of s bytes made once (the least a list of that size costs), as the answer
//   &token=1 on the object routes leaves their D1 read out: a request with an access token, whose
//                               signature the service checks without I/O
import { DurableObject } from "cloudflare:workers";

/** What the queued message carries besides its count: about what the service's event message holds. */
const EVENT_BODY = {
  appId: "1",
  userId: "user-0",
  eventName: "kill-enemy",
  metaData: { amount: 1 },
  receivedAt: 0,
  eventId: null,
};

/** JSON texts by size, made once per isolate. */
const texts = new Map();
const textOf = (size) => {
  if (!texts.has(size)) texts.set(size, JSON.stringify("x".repeat(Math.max(0, size - 2))));
  return texts.get(size);
};

export class FloorObject extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
  }

  async bump(send, outbox) {
    const sql = this.ctx.storage.sql;
    const n = (sql.exec("SELECT n FROM counter WHERE id = 1").toArray()[0]?.n ?? 0) + 1;
    sql.exec("INSERT INTO counter (id, n) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET n = excluded.n", n);
    const message = { kind: "event", n, event: EVENT_BODY };
    if (outbox) {
      // Made at the object's first call (objects of an outbox phase are called with it from the first), as the
      // service's outbox table is.
      if (n === 1) sql.exec("CREATE TABLE outbox (seq INTEGER PRIMARY KEY, message TEXT NOT NULL)");
      sql.exec("INSERT INTO outbox (seq, message) VALUES (?, ?)", n, JSON.stringify(message));
    }
    if (send || outbox) await this.env.QUEUE.send(message, { contentType: "json" });
    if (outbox) sql.exec("DELETE FROM outbox WHERE seq <= ?", n);
    return n;
  }

  text(size) {
    this.ctx.storage.sql.exec("SELECT n FROM counter WHERE id = 1").toArray();
    return textOf(size);
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/nothing") return Response.json({ status: 200 });
    if (url.searchParams.get("token") !== "1") await env.DB.prepare("SELECT ?1 AS path").bind(url.pathname).first();
    if (url.pathname === "/trivial") return Response.json({ status: 200 });
    const name = url.searchParams.get("name");
    const object = name && env.OBJECT.get(env.OBJECT.idFromName(name));
    if (url.pathname === "/object" && object) {
      return Response.json({
        n: await object.bump(url.searchParams.get("send") === "1", url.searchParams.get("outbox") === "1"),
      });
    }
    const size = Number(url.searchParams.get("size"));
    if (url.pathname === "/object-text" && object && Number.isInteger(size) && size > 0) {
      return new Response(await object.text(size), { headers: { "Content-Type": "application/json" } });
    }
    return Response.json({ status: 404 }, { status: 404 });
  },

  /** The floor's background work: none, only the acknowledgement. */
  async queue(batch) {
    batch.ackAll();
  },
};
