// The API explorer at /docs: Scalar's API reference over this deployment's /openapi.json, served
// from this origin with every feature that would call another host turned off (the page's CSP
// refuses such requests anyway). Requests made with "Test Request" go to this origin.
import { createApiReference } from "./standalone.esm.js";

createApiReference("#explorer", {
  url: "/openapi.json",
  // Requests go to the origin that served the page, whatever the document's `servers` say.
  servers: [{ url: location.origin, description: "This deployment" }],
  baseServerURL: location.origin,
  // Scalar's defaults that reach Scalar's hosts: fonts from its CDN, its request proxy, telemetry,
  // the AI agent, the MCP button, the developer tools (share or deploy the document on Scalar) and
  // the "Open API Client" links to its hosted client. "Test Request" stays: it runs in this page.
  withDefaultFonts: false,
  proxyUrl: "",
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideClientButton: true,
  _integration: null,
  // No sign-in flow leaves the page, and a credential is kept only while the page is open.
  persistAuth: false,
  documentDownloadType: "json",
  // Operations by their summary, each showing the operationId that generated clients name it by.
  showOperationId: true,
  // On a phone the top bar names the operation in view on one line: cut it short rather than let
  // it widen the page.
  customCss: ".t-doc__header header > span { min-width: 0; overflow: hidden; text-overflow: ellipsis; }",
});
