// The ceiling of a figure: the trivial authenticated route (GET /api/v1/auth/check) on the same
// server, with the same credential kind and the same concurrency, measured right before the figure.
import { runLoad, warmUp } from "./http.mjs";

export async function measureCeiling(ctx, { token, concurrency, requests, seconds }) {
  const make = () => ({ method: "GET", path: "/api/v1/auth/check", token });
  const client = ctx.client;
  await warmUp(client, { concurrency, make });
  const result = await ctx.measured(`trivial route, ${concurrency} concurrent`, () =>
    runLoad(client, { concurrency, maxRequests: requests, maxMs: seconds * 1000, make }),
  );
  if (result.ok === 0) throw new Error(`the trivial route failed: ${JSON.stringify(result.failures)}`);
  return result;
}
