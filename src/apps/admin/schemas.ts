import { z } from "@hono/zod-openapi";
import { LanguageCode } from "../../shared/schemas";

export const AppInput = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: "Space Racer" }),
    default_language: LanguageCode.default("en").openapi({ example: "en" }),
  })
  .openapi("AppInput");
export type AppInput = z.infer<typeof AppInput>;

export const App = z
  .object({ app_id: z.string(), name: z.string(), default_language: z.string(), created_at: z.string(), updated_at: z.string() })
  .openapi("App");
