// Browser files bundled into the Worker as text (wrangler.toml [[rules]] type Text) and served by src/console/static.ts.
declare module "*.browser.js" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "htmx.org/dist/htmx.min.js" {
  const text: string;
  export default text;
}
declare module "mqtt/dist/mqtt.esm.js" {
  const text: string;
  export default text;
}
