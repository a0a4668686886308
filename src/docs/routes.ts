import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../shared/http";
import { openApiDocument, registerReferencePaths, registerSecuritySchemes } from "./document";
import { EXPLORER_CONTENT_SECURITY_POLICY, explorerPage } from "./explorer-page";

export function registerDocs(app: OpenAPIHono<AppEnv>) {
  registerSecuritySchemes(app);
  registerReferencePaths(app);
  // Built once per isolate and setting: the routes are all registered when a request comes.
  const documents = new Map<boolean, ReturnType<typeof openApiDocument>>();
  const document = (env: Env) => {
    const development = env.DEV_CLOCK === "on";
    if (!documents.has(development)) documents.set(development, openApiDocument(app, { development }));
    return documents.get(development)!;
  };
  app.get("/openapi.json", (c) => c.json(document(c.env)));
  app.get("/docs", (c) => {
    c.header("Content-Security-Policy", EXPLORER_CONTENT_SECURITY_POLICY);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "same-origin");
    // The page names its script by content hash: a new deployment must be seen at once.
    c.header("Cache-Control", "no-cache");
    return c.html(explorerPage());
  });
}
