/**
 * Vite's `?raw` imports: a file's text, e.g. the demo catalog YAML read by tests inside workerd (which has no file
 * system).
 */
declare module "*?raw" {
  const text: string;
  export default text;
}
