import { mkdirSync } from "node:fs";

/**
 * wrangler.toml serves dist/public as the worker's static assets, and the Workers pool refuses a
 * config whose assets folder is missing. Worker tests read no built file (the demo pages' routes
 * answer from the worker), so they run before the build: an empty folder stands in on a fresh clone.
 */
export default function setup() {
  mkdirSync("dist/public", { recursive: true });
}
