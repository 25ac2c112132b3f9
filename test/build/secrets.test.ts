import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN_SECRETS, devVars, filesUnder, secretsIn } from "../helpers/secrets.ts";

/**
 * No secret in any client artifact: every built file under dist/ (the public site and the
 * npm package) is searched for the demo admin key, its digest and a developer's local secrets. The
 * worker's own secrets are set at run time, never at build time; what the browser receives from a
 * worker holding them is searched in test/e2e/secrets.test.ts.
 */
describe("no secret in a built file", () => {
  it("is in no built file under dist/ (public site and npm package)", () => {
    const files = filesUnder("dist");
    expect(files.some((f) => f.endsWith("parley-widget.js"))).toBe(true);
    expect(files.some((f) => f.startsWith(join("dist", "npm")))).toBe(true);
    const secrets = { ...ADMIN_SECRETS, ...devVars() };
    const found = files.map((f) => ({ f, l: secretsIn(readFileSync(f, "latin1"), secrets) })).filter((x) => x.l.length);
    expect(found).toEqual([]);
  });
});
