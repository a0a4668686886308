// Where the time of a measured phase goes, on Linux (through /proc), for a server started by the
// benchmark: the CPU time of the server's processes (wrangler, its proxy and the workerd that runs
// the Worker, its Durable Objects, local D1 and queues) per request, always; and with
// BENCH_PROFILE=1 a V8 CPU profile of the Worker's isolate (shared by the Worker and its Durable
// Objects) through wrangler's inspector proxy, as busy share and the top functions.
import fs, { readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";

const readText = (file) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/** Socket inodes listening on 127.0.0.1 ports: Map inode → port. */
function listeningSockets() {
  const byInode = new Map();
  for (const line of readText("/proc/net/tcp").split("\n").slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols[3] !== "0A") continue; // LISTEN
    byInode.set(cols[9], parseInt(cols[1].split(":")[1], 16));
  }
  return byInode;
}

/** Process ids; none where there is no /proc (the CPU figures are then left out). */
const pids = () => {
  try {
    return readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
};

function socketInodes(pid) {
  const inodes = [];
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: "utf8" }) ?? "");
      if (m) inodes.push(m[1]);
    }
  } catch {}
  return inodes;
}

const groupOf = (pid) =>
  readText(`/proc/${pid}/stat`)
    .replace(/^.*\) /, "")
    .split(" ")[2];

/** The processes of the server listening on `port`: its process group (wrangler is started detached). */
export function serverProcesses(port) {
  const listening = listeningSockets();
  const all = pids();
  const owner = all.find((pid) => socketInodes(pid).some((inode) => listening.get(inode) === port));
  if (!owner) return [];
  const group = groupOf(owner);
  return all.filter((pid) => groupOf(pid) === group);
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** The role of the runtime that runs the Worker itself (not wrangler, not its proxy): what production also runs. */
export const WORKER_RUNTIME = "workerd (Worker, DOs, D1, queues)";

/** What a server process is: wrangler itself, the runtime of its proxy, or the Worker's runtime. */
function roleOf(pid) {
  const cmdline = readText(`/proc/${pid}/cmdline`);
  if (!cmdline.includes("workerd")) return "wrangler";
  return /socket-addr=entry=127\.0\.0\.1:0\b/.test(cmdline.replace(/\0/g, " "))
    ? WORKER_RUNTIME
    : "workerd (wrangler's proxy)";
}

/** User + system CPU time (ms) each role of the processes used so far. */
export function cpuTimeMs(processIds) {
  const byRole = {};
  for (const pid of processIds) {
    const fields = readText(`/proc/${pid}/stat`)
      .replace(/^.*\) /, "")
      .split(" ");
    const role = roleOf(pid);
    byRole[role] = (byRole[role] ?? 0) + (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * TICK_MS;
  }
  return byRole;
}

export const totalMs = (byRole) => Object.values(byRole).reduce((a, b) => a + b, 0);

/**
 * The inspector WebSocket URL of the user Worker behind the server on `port`, or undefined.
 * wrangler keeps the runtime's own inspector connection for itself and offers devtools clients
 * its inspector proxy (a "Cloudflare Worker" target), so that is the one to use.
 */
export async function findInspector(port) {
  const listening = listeningSockets();
  for (const pid of serverProcesses(port)) {
    if (!readText(`/proc/${pid}/cmdline`).includes("workerd")) continue;
    const ports = socketInodes(pid)
      .map((inode) => listening.get(inode))
      .filter(Boolean);
    for (const candidate of ports) {
      try {
        const targets = await (
          await fetch(`http://127.0.0.1:${candidate}/json`, { signal: AbortSignal.timeout(2000) })
        ).json();
        const worker = targets.find((t) => t.title === "Cloudflare Worker");
        if (worker) return worker.webSocketDebuggerUrl;
      } catch {}
    }
  }
  return undefined;
}

/**
 * One inspector session for the whole run (attaching again and again has been seen to take the
 * runtime down); `profile(fn)` runs fn under the sampling profiler and answers [fn's result, summary].
 */
export async function openProfiler(wsUrl, { intervalUs = 500, outDir } = {}) {
  // `ws` comes with the mqtt client (a dev dependency); only profiling needs it.
  const { default: WebSocket } = await import("ws");
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let nextId = 1;
  const pending = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.id && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  });
  ws.on("close", () => {
    for (const settle of pending.values()) settle({ error: { message: "inspector connection closed" } });
    pending.clear();
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      if (ws.readyState !== WebSocket.OPEN) return reject(new Error(`${method}: inspector connection closed`));
      const id = nextId++;
      pending.set(id, (msg) =>
        msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result),
      );
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: intervalUs });
  return {
    async profile(fn) {
      await send("Profiler.start");
      let result;
      let failure;
      try {
        result = await fn();
      } catch (err) {
        failure = err;
      }
      const stopped = await send("Profiler.stop").catch(() => undefined);
      if (failure) throw failure;
      if (stopped?.profile && outDir) saveProfile(outDir, stopped.profile);
      return [result, stopped?.profile ? summarizeProfile(stopped.profile) : undefined];
    },
    close: () => ws.close(),
  };
}

/** Writes a raw profile as a .cpuprofile file (Chrome DevTools › Performance loads it). */
function saveProfile(dir, profile) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `profile-${Date.now()}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  console.error(`profile saved: ${file}`);
}

/** Busy share of the isolate, and the top functions by self time and by inclusive time. */
export function summarizeProfile(profile, top = 12) {
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const nameOf = (node) => {
    const f = node.callFrame;
    // V8's pseudo-frames: (idle), (program), (garbage collector), (root).
    if (!f.url && f.functionName.startsWith("(")) return f.functionName;
    return `${f.functionName || "(anonymous)"}${f.url ? ` ${f.url.split("/").pop()}:${f.lineNumber + 1}` : ""}`;
  };
  const selfMs = new Map();
  const inclusiveMs = new Map();
  profile.samples.forEach((nodeId, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const name = nameOf(byNode.get(nodeId));
    selfMs.set(name, (selfMs.get(name) ?? 0) + ms);
    if (name === "(idle)") return;
    const seen = new Set();
    for (let id = nodeId; id !== undefined; id = parent.get(id)) {
      const n = nameOf(byNode.get(id));
      if (n.startsWith("(") && !n.startsWith("(anonymous)")) continue;
      if (!seen.has(n)) {
        seen.add(n);
        inclusiveMs.set(n, (inclusiveMs.get(n) ?? 0) + ms);
      }
    }
  });
  const idle = selfMs.get("(idle)") ?? 0;
  const busy = [...selfMs].reduce((sum, [name, ms]) => (name === "(idle)" ? sum : sum + ms), 0);
  const rank = (map, n = top) =>
    [...map]
      .filter(([name]) => name !== "(idle)")
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, ms]) => ({ name, ms, share: ms / (busy || 1) }));
  /** Time under each direct callee of the frames named `parentName`. */
  const childrenOf = (parentName) => {
    const out = new Map();
    const subtree = (id) => {
      const n = byNode.get(id);
      let ms = (n.hitCount ?? 0) * (totalMs / Math.max(1, profile.samples.length));
      for (const c of n.children ?? []) ms += subtree(c);
      return ms;
    };
    for (const n of profile.nodes) {
      if (nameOf(n) !== parentName) continue;
      for (const c of n.children ?? [])
        out.set(nameOf(byNode.get(c)), (out.get(nameOf(byNode.get(c))) ?? 0) + subtree(c));
    }
    return [...out].sort((a, b) => b[1] - a[1]);
  };
  /**
   * Time of the samples whose stack holds any function of these names (each sample counted once, however many match).
   */
  const timeUnder = (functionNames) => {
    const matches = new Map();
    const under = (id) => {
      if (id === undefined) return false;
      if (!matches.has(id))
        matches.set(id, functionNames.has(byNode.get(id).callFrame.functionName) || under(parent.get(id)));
      return matches.get(id);
    };
    let ms = 0;
    profile.samples.forEach((nodeId, i) => {
      if (under(nodeId)) ms += (profile.timeDeltas[i] ?? 0) / 1000;
    });
    return ms;
  };
  return {
    totalMs,
    busyMs: busy,
    busyShare: busy / (busy + idle || 1),
    self: rank(selfMs),
    inclusive: rank(inclusiveMs),
    inclusiveAll: rank(inclusiveMs, Infinity),
    childrenOf,
    timeUnder,
  };
}

export function formatProfile(label, summary) {
  const lines = [
    `profile of the Worker isolate during "${label}": busy ${(summary.busyShare * 100).toFixed(0)}% of ${(summary.totalMs / 1000).toFixed(1)} s`,
  ];
  const row = (f) => `  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.ms.toFixed(0).padStart(6)} ms  ${f.name}`;
  lines.push(" self time:", ...summary.self.map(row), " inclusive time:", ...summary.inclusive.map(row));
  return lines.join("\n");
}
