import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "vite";

export interface HostApp {
  /** The built app, ready to serve. */
  dir: string;
  /** The host's own TypeScript check against the package's published declarations. */
  typecheck: { ok: boolean; output: string };
  cleanup(): void;
}

/**
 * Builds a host single-page app from test/e2e/fixtures/<name> with Vite, resolving "parley" the
 * way an installed package resolves: through this repository's package.json "exports".
 */
export async function buildHostApp(name: string): Promise<HostApp> {
  const root = resolve("test/e2e/fixtures", name);
  const work = mkdtempSync(join(tmpdir(), `parley-${name}-`));
  mkdirSync(join(work, "node_modules"));
  symlinkSync(resolve("."), join(work, "node_modules", "parley"));
  await build({
    root,
    logLevel: "warn",
    configFile: false,
    resolve: { alias: { parley: join(work, "node_modules", "parley") } },
    build: { outDir: join(work, "dist"), emptyOutDir: true },
  });
  const tsc = spawnSync("npx", ["tsc", "-p", join(root, "tsconfig.json")], { encoding: "utf8" });
  return {
    dir: join(work, "dist"),
    typecheck: { ok: tsc.status === 0, output: tsc.stdout + tsc.stderr },
    cleanup: () => rmSync(work, { recursive: true, force: true }),
  };
}
