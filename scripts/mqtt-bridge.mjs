// Native MQTT for a local run: listens on TCP (1883 by default) and relays each connection's
// bytes, both ways and unchanged, to the service's MQTT-over-WebSocket endpoint, so that TCP-only
// clients such as `mosquitto_sub` work against `npm start`. MQTT framing is the broker's business;
// the bridge only moves bytes.
//
//   npm run mqtt:bridge [-- --port 1883 --host 127.0.0.1 --url ws://127.0.0.1:8787/mqtt]
//   (or MQTT_BRIDGE_PORT, MQTT_BRIDGE_HOST, MQTT_BRIDGE_URL)
//
// Node 20 has no WebSocket client without a flag, hence the `ws` package (a dev dependency).
import net from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { WebSocket } from "ws";

export const DEFAULTS = { port: 1883, host: "127.0.0.1", url: "ws://127.0.0.1:8787/mqtt" };

/**
 * Starts a bridge; resolves once it listens (port 0 picks a free port). `close()` stops listening
 * and drops every relayed connection.
 * @param {{port?: number, host?: string, url?: string, log?: (line: string) => void}} options
 */
export function startBridge({ port = DEFAULTS.port, host = DEFAULTS.host, url = DEFAULTS.url, log = () => {} } = {}) {
  const relays = new Set();
  const server = net.createServer((socket) => {
    const ws = new WebSocket(url, "mqtt", { perMessageDeflate: false });
    const early = [];
    const end = () => {
      relays.delete(end);
      socket.destroy();
      if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.terminate();
    };
    relays.add(end);
    socket.setNoDelay(true);
    // Bytes may arrive before the WebSocket is open: the CONNECT of a fast client.
    socket.on("data", (chunk) => (ws.readyState === WebSocket.OPEN ? ws.send(chunk) : early.push(chunk)));
    ws.on("open", () => {
      for (const chunk of early.splice(0)) ws.send(chunk);
    });
    ws.on("message", (data) => socket.write(data));
    ws.on("close", () => {
      relays.delete(end);
      socket.end();
    });
    ws.on("error", (err) => {
      log(`mqtt-bridge: WebSocket ${url}: ${err.message}`);
      end();
    });
    socket.on("close", () => {
      relays.delete(end);
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      else if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
    });
    socket.on("error", () => end());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: address.port,
        close: () =>
          new Promise((done) => {
            for (const end of [...relays]) end();
            server.close(() => done());
          }),
      });
    });
  });
}

async function main() {
  const { values } = parseArgs({
    options: { port: { type: "string", short: "p" }, host: { type: "string" }, url: { type: "string" } },
  });
  const port = Number(values.port ?? process.env.MQTT_BRIDGE_PORT ?? DEFAULTS.port);
  const host = values.host ?? process.env.MQTT_BRIDGE_HOST ?? DEFAULTS.host;
  const url = values.url ?? process.env.MQTT_BRIDGE_URL ?? DEFAULTS.url;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid port ${values.port ?? process.env.MQTT_BRIDGE_PORT}`);
  const bridge = await startBridge({ port, host, url, log: (line) => console.error(line) });
  console.log(`MQTT bridge: mqtt://${host}:${bridge.port} -> ${url}`);
  const stop = () => bridge.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(`mqtt-bridge: ${err.message}`);
    process.exit(1);
  });
}
