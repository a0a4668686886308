import { z } from "@hono/zod-openapi";
import { CONSOLE_ROLES } from "../../kit/console/core/roles";

/** Console users as the admin API and the console's Users page take and show them. */

export const MIN_PASSWORD_LENGTH = 10;

const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, "must be an email address")
  .openapi({ example: "ann@studio.example" });

const Password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(200)
  .openapi({ description: "Stored only as a PBKDF2-SHA256 hash" });

const Role = z.enum(CONSOLE_ROLES).openapi({
  description:
    "owner: everything, including apps, API keys and console users; editor: an app's configuration and players; viewer: read only",
});

export const OperatorInput = z
  .object({ email: Email, display_name: z.string().trim().max(200).default(""), role: Role, password: Password })
  .openapi("ConsoleUserInput");
export type OperatorInput = z.infer<typeof OperatorInput>;

/** A replacement: without a password the current one stays. A new role or password signs the user out everywhere. */
export const OperatorUpdate = OperatorInput.extend({ password: Password.optional() }).openapi("ConsoleUserUpdate");
export type OperatorUpdate = z.infer<typeof OperatorUpdate>;

export const Operator = z
  .object({
    console_user_id: z.string(),
    email: z.string(),
    display_name: z.string(),
    role: z.enum(CONSOLE_ROLES),
    active_sessions: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ConsoleUser");
