import { z } from "@hono/zod-openapi";

/**
 * The one rule for event names, for the events a game sends and for every name configuration
 * writes (challenges, level challenges, leaderboards, an app's backend-only events, catalog
 * documents, the console's forms): a configuration can only name events that intake accepts.
 * Names are free, custom ones as much as predefined ones, but a name with a space at either end
 * or a control character would look like another name while never matching it.
 */

export const EVENT_NAME_MAX_LENGTH = 100;

/** Whitespace at either end; control characters anywhere (C0, DEL and C1). */
const EDGE_SPACE = /^\s|\s$/u;
const CONTROL = /\p{Cc}/u;

/** What is wrong with a non-empty name of at most the length, beyond its length: undefined when nothing. */
export function eventNameCharacterProblem(name: string): string | undefined {
  if (EDGE_SPACE.test(name)) return "must not start or end with a space";
  if (CONTROL.test(name)) return "must not contain control characters";
  return undefined;
}

/** What is wrong with a name, or undefined: the rule as intake checks a string it was sent. */
export function eventNameProblem(name: string): string | undefined {
  if (name.length === 0) return "must not be empty";
  if (name.length > EVENT_NAME_MAX_LENGTH) return `must be at most ${EVENT_NAME_MAX_LENGTH} characters`;
  return eventNameCharacterProblem(name);
}

/** An event name as configuration takes it: the same rule, as a zod schema. */
export const EventName = z
  .string()
  .min(1)
  .max(EVENT_NAME_MAX_LENGTH)
  .superRefine((name, ctx) => {
    const problem = eventNameCharacterProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({
    description: `An event name: any text of 1 to ${EVENT_NAME_MAX_LENGTH} characters without a space at either end or control characters, as event intake accepts it.`,
  });
