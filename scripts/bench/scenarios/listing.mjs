// Listing a category of 1000 challenges (the spec's maximum) for several users, against the
// trivial route with an access token at the same concurrency.
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { cpuNote } from "../report.mjs";
import { mapPool, mintTokens, missingFor } from "../api.mjs";
import { createChallengeApp } from "../seed.mjs";

export async function run(ctx) {
  const { listing, seconds } = ctx.config;
  const scenario = `list all challenges, 1 category of ${listing.categorySize.toLocaleString("en-US")}`;
  const why = missingFor(ctx.features, "challenges", "check");
  if (why) return ctx.report.missing(scenario, why);

  // Manual challenges: the list shows them all as `unlock`, the common case of a big category.
  const app = await createChallengeApp(ctx, { name: "Bench listing", challenges: listing.categorySize, listeningTo: "kill-enemy", listening: 0, auto: false });
  const users = Array.from({ length: listing.users }, (_, i) => `lister-${i}`);
  const tokens = await mintTokens(ctx.client, app.apiKey, users);
  const path = `/api/v1/challenges/personal/all/${app.appId}`;
  // First touch of every user, and a check that the whole category is listed.
  const sizes = await mapPool(tokens, 8, async (token) => {
    const r = await ctx.client.json("GET", path, { token });
    return r.body.reduce((n, category) => n + (category.challenges?.length ?? 0), 0);
  });
  if (sizes.some((n) => n !== listing.categorySize)) throw new Error(`the list has ${sizes[0]} challenges, not ${listing.categorySize}`);

  const { concurrency, requests } = listing;
  let bytes = 0;
  const { ceiling, list: result } = await compareInRounds(
    ctx,
    [
      ceilingPhase(tokens[0], concurrency),
      {
        key: "list",
        label: "list challenges",
        concurrency,
        make: (i) => ({ method: "GET", path, token: tokens[i % tokens.length] }),
        onResult: (_i, r) => (bytes = r.text.length),
      },
    ],
    { rounds: ctx.config.rounds, seconds, requests },
  );
  ctx.report.add({ scenario: `trivial route (access token, ${concurrency} concurrent)`, metric: "throughput (req/s)", value: ceiling.rps, p50: ceiling.p50, p99: ceiling.p99 });
  ctx.report.add({
    scenario: `${scenario} (${Math.round(bytes / 1024)} KB JSON), ${listing.users} users`,
    metric: `throughput, ${concurrency} concurrent (req/s${cpuNote(result, ceiling)})`,
    value: result.rps,
    ceiling: ceiling.rps,
    ratio: result.rps / ceiling.rps,
    p50: result.p50,
    p99: result.p99,
  });
}
