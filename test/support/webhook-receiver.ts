import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A customer's webhook receiver on 127.0.0.1; `answer` picks the status of each call. */
export function receiver(answer: (call: Omit<Received, "answered">, index: number) => number) {
  const calls: Received[] = [];
  let server: Server | undefined;
  return {
    calls,
    async listen(port = 0): Promise<number> {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const call = {
            url: new URL(req.url!, "http://127.0.0.1"),
            headers: req.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          };
          const status = answer(call, calls.length);
          calls.push({ ...call, answered: status });
          res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "no");
        });
      });
      await new Promise<void>((resolve, reject) => server!.once("error", reject).listen(port, "127.0.0.1", resolve));
      return (server.address() as AddressInfo).port;
    },
    async close() {
      if (!server) return;
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    },
  };
}
