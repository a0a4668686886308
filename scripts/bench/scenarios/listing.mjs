// Listing all of a user's challenges in one category of 20, 100 and 1000 challenges (the spec's
// maximum), for several users, against the trivial route with an access token at the same
// concurrency, all in the same rounds: how the list's cost grows with the category. The largest is
// also set against the runtime floor of an answer of its size from an object (floor.mjs).
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { cpuNote } from "../report.mjs";
import { mapPool, mintTokens, missingFor } from "../api.mjs";
import { createChallengeApp } from "../seed.mjs";
import { addAgainstFloorRow, addFloorRows, IN_MEMORY_OBJECTS } from "../floor.mjs";

/** The category of the 1,000-challenge list must reach this share of the trivial route. */
const TARGET = 0.5;

export async function run(ctx) {
  const { listing, seconds } = ctx.config;
  const scenario = "list all challenges, 1 category of";
  const why = missingFor(ctx.features, "challenges", "check");
  if (why) return ctx.report.missing(scenario, why);
  const sizes = [...new Set([20, 100, listing.categorySize])].sort((a, b) => a - b);
  const users = Array.from({ length: listing.users }, (_, i) => `lister-${i}`);
  const lists = [];
  for (const size of sizes) {
    // Manual challenges: the list shows them all as `unlock`, the common case of a big category.
    const app = await createChallengeApp(ctx, {
      name: `Bench listing ${size}`,
      challenges: size,
      listeningTo: "kill-enemy",
      listening: 0,
      auto: false,
    });
    const tokens = await mintTokens(ctx.client, app.apiKey, users);
    const path = `/api/v1/challenges/personal/all/${app.appId}`;
    // First touch of every user, and a check that the whole category is listed.
    const counts = await mapPool(tokens, 8, async (token) => {
      const r = await ctx.client.json("GET", path, { token });
      return r.body.reduce((n, category) => n + (category.challenges?.length ?? 0), 0);
    });
    if (counts.some((n) => n !== size))
      throw new Error(`the list has ${counts.find((n) => n !== size)} challenges, not ${size}`);
    const bytes = Buffer.byteLength((await ctx.client.request("GET", path, { token: tokens[0] })).text);
    lists.push({ size, tokens, path, bytes });
  }

  const { concurrency, requests } = listing;
  // The floor of the largest list: an answer of its size from an object kept in memory, as a request
  // with an access token makes it (no D1 read, floor.mjs).
  const largest = lists[lists.length - 1];
  const floor = ctx.server.local ? await ctx.floor() : undefined;
  const phases = [
    ceilingPhase(lists[0].tokens[0], concurrency),
    ...lists.map((list) => ({
      key: `list-${list.size}`,
      label: `list ${list.size} challenges`,
      concurrency,
      make: (i) => ({ method: "GET", path: list.path, token: list.tokens[i % list.tokens.length] }),
    })),
    ...(floor ? [floor.nothing(concurrency), floor.textForToken(concurrency, largest.bytes)] : []),
  ];
  const results = await compareInRounds(ctx, phases, { rounds: ctx.config.rounds, seconds, requests });
  const ceiling = results.ceiling;
  ctx.report.add({
    scenario: `trivial route (access token, ${concurrency} concurrent)`,
    metric: "throughput (req/s)",
    value: ceiling.rps,
    p50: ceiling.p50,
    p99: ceiling.p99,
  });
  for (const list of lists) {
    const result = results[`list-${list.size}`];
    const ratio = result.rps / ceiling.rps;
    const targeted = list.size === listing.categorySize;
    ctx.report.add({
      scenario: `${scenario} ${list.size.toLocaleString("en-US")} (${Math.round(list.bytes / 1024)} KB JSON), ${listing.users} users`,
      metric: `throughput, ${concurrency} concurrent (req/s${cpuNote(result, ceiling)})`,
      value: result.rps,
      ceiling: ceiling.rps,
      ratio,
      p50: result.p50,
      p99: result.p99,
      ...(targeted ? { target: `≥ ${TARGET}× trivial`, pass: ratio >= TARGET } : {}),
    });
  }
  if (!floor) return;
  const floorKey = `floor-text-${largest.bytes}`;
  const what = `one read in one of ${IN_MEMORY_OBJECTS} objects kept in memory, which answers ${Math.round(largest.bytes / 1024)} KB of JSON made once, as large as the list of ${largest.size.toLocaleString("en-US")}, no D1 read (as with an access token)`;
  addFloorRows(
    ctx,
    results,
    floorKey,
    what,
    concurrency,
    "access-token",
    largest.size === listing.categorySize ? TARGET : undefined,
  );
  const figure = results[`list-${largest.size}`];
  addAgainstFloorRow(ctx, {
    scenario: `${scenario} ${largest.size.toLocaleString("en-US")}`,
    figure,
    ceiling,
    results,
    floorKey,
    floorName: `${Math.round(largest.bytes / 1024)} KB answer from an object`,
    credential: "access-token",
  });
}
