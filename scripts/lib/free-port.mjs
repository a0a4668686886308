// A port that nothing listens on now, chosen by the system: servers started for tests and
// benchmarks never assume that a fixed port is free.
import { createServer } from "node:net";

/** @returns {Promise<number>} */
export function freePort(host = "127.0.0.1") {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
