import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../shared/http";
import { withBodyAnswers } from "./body-answers";
import { withTokenAnswers } from "./token-answers";
import { EXPLORER_CONTENT_SECURITY_POLICY, explorerPage } from "./explorer-page";

const DOCUMENT_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Open Gamification API",
    version: "1.0.0",
    description:
      "Challenges, battle passes, leaderboards, event intake, MQTT realtime and webhooks. Serves the SCILL paths so the published SCILL SDKs work unchanged.",
  },
};

export function registerDocs(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "http", scheme: "bearer", description: "An API key of the app (at most 64 characters). Server side only.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "AccessToken", {
    type: "http", scheme: "bearer", bearerFormat: "JWT", description: "An access token minted for one user.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "AdminToken", {
    type: "http", scheme: "bearer", description: "The ADMIN_TOKEN secret of the deployment.",
  });
  const document = () => withTokenAnswers(withBodyAnswers(app.getOpenAPI31Document(DOCUMENT_INFO)));
  app.get("/openapi.json", (c) => c.json(document()));
  app.get("/docs", (c) => {
    c.header("Content-Security-Policy", EXPLORER_CONTENT_SECURITY_POLICY);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "same-origin");
    // The page names its script by content hash: a new deployment must be seen at once.
    c.header("Cache-Control", "no-cache");
    return c.html(explorerPage());
  });
}
