import { z } from "@hono/zod-openapi";

/** Field schemas of users that several areas' endpoints share. */

export const UserIdSchema = z.string().min(1).max(256);

export const UserInfoSchema = z
  .object({
    username: z.string().max(200).nullable().optional().openapi({ example: "NoName" }),
    avatarImage: z.string().max(2048).nullable().optional().openapi({ example: "https://example.com/avatars/1.png" }),
  })
  .openapi("UserInfo");
