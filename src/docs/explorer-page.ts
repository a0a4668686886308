import { ASSET_URLS } from "../shared/asset-urls.generated";

/**
 * The API explorer at /docs: an empty page that loads Scalar's API reference (a static asset of
 * this origin, scripts/build-assets.mjs), which renders /openapi.json with search, examples and
 * "Test Request". The policy keeps every request on this origin: no font, proxy or telemetry
 * host can be reached, and "Test Request" calls this deployment. Scalar sets styles from script
 * (its stylesheet is part of its bundle), hence 'unsafe-inline' for styles only.
 */
export const EXPLORER_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export function explorerPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Open Gamification API reference</title>
</head>
<body>
<noscript>The API reference needs JavaScript. The OpenAPI document itself is at <a href="/openapi.json">/openapi.json</a>.</noscript>
<div id="explorer"></div>
<script type="module" src="${ASSET_URLS["explorer.js"]}"></script>
</body>
</html>
`;
}
