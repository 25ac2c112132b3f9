import { cpSync, existsSync } from "node:fs";

/**
 * wrangler.toml serves dist/public as the worker's static assets, and the Workers pool refuses a
 * config whose assets folder is missing. Worker tests run before the build, so on a fresh clone the
 * demo's static files stand in for it, copied as the build copies them (vite's publicDir, widget/demo):
 * the tests of what the assets serve (the demo pages, their scripts and headers) read those, and no
 * built file.
 */
export default function setup() {
  if (!existsSync("dist/public")) cpSync("widget/demo", "dist/public", { recursive: true });
}
