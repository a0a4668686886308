import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../shared/http";
import { notFound } from "../shared/domain-errors";
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from "../shared/openapi";
import { readClock, setClockOffset, toIso, type ServiceClock } from "../shared/clock";
import { runDueDevTimers } from "./dev-timers";

const Clock = z.object({ now: z.string(), offset_seconds: z.number() }).openapi("DevClock");
const Advance = z
  .object({
    advance_seconds: z
      .number()
      .int()
      .min(0)
      .max(10 * 366 * 86400)
      .openapi({ example: 3600 }),
  })
  .openapi("DevClockAdvance");

const tags = ["Admin: development clock"];
const security = bearerSecurity.admin;

const present = (clock: ServiceClock) => ({
  now: toIso(clock.now()),
  offset_seconds: Math.round(clock.offsetMs / 1000),
});

/** Only with DEV_CLOCK=on; in a deployed configuration these paths do not exist. */
export const devClockAdmin = createRouter();
devClockAdmin.use("/api/v1/admin/dev/*", async (c, next) => {
  if (c.env.DEV_CLOCK !== "on") throw notFound("The development clock is off");
  await next();
});
devClockAdmin
  .openapi(
    createRoute({
      operationId: "getDevClock",
      method: "get",
      path: "/api/v1/admin/dev/clock",
      tags,
      security,
      summary: "Read the service clock (development only)",
      responses: { 200: jsonResponse(Clock, "The service's current time"), ...errorResponses },
    }),
    async (c) => c.json(present(await readClock(c.env)), 200),
  )
  .openapi(
    createRoute({
      operationId: "advanceDevClock",
      method: "post",
      path: "/api/v1/admin/dev/clock/advance",
      tags,
      security,
      summary: "Move the service clock forward (development only)",
      description:
        "Also runs, before answering, the timers of players' objects that the move made due (streaks' period ends, challenges' " +
        "time-outs), up to 500 objects a call, so that what a player who never returns causes happens at once.",
      request: jsonBody(Advance),
      responses: { 200: jsonResponse(Clock, "The service's new time"), ...errorResponses },
    }),
    async (c) => {
      const offsetMs = (await readClock(c.env)).offsetMs + c.req.valid("json").advance_seconds * 1000;
      await setClockOffset(c.env.DB, offsetMs);
      const clock = await readClock(c.env);
      await runDueDevTimers(c.env, clock.now());
      return c.json(present(clock), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "resetDevClock",
      method: "delete",
      path: "/api/v1/admin/dev/clock",
      tags,
      security,
      summary: "Put the service clock back to real time",
      responses: { 200: jsonResponse(Clock, "Real time"), ...errorResponses },
    }),
    async (c) => {
      await setClockOffset(c.env.DB, 0);
      return c.json(present(await readClock(c.env)), 200);
    },
  );
