import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionResponse } from "../../shared/wire/api.ts";
import { dermConsultScript } from "../../worker/demo/index.ts";
import { startFakeUpstream, type FakeUpstream } from "../helpers/fake-upstream.ts";
import { OFFLINE_ENV, startWranglerDev, type WranglerDev } from "../helpers/wrangler-dev.ts";

/**
 * `wrangler dev` run from wrangler.toml as a deploy runs it (no DEMO_MODE) with a paid provider
 * configured and an empty KV namespace: it serves the widget's files and no demo page; the owner
 * installs presets with `npm run presets:install -- --local` and the site works for the owner's origin
 * only. The attacker's probes of a deployed worker (the demo site, its admin key, CORS) are in
 * test/worker/demo-mode.test.ts.
 */
let upstream: FakeUpstream;
let dev: WranglerDev;
const state = mkdtempSync(join(tmpdir(), "parley-deployed-"));
const deployed = () =>
  startWranglerDev({ demo: false, state, vars: { LLM_BASE_URL: upstream.url, LLM_API_KEY: "sk-paid" } });

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: "sk-paid", scripts: { "gpt-4o-mini": dermConsultScript } });
  dev = await deployed();
});

afterAll(async () => {
  await dev?.stop();
  await upstream?.close();
  rmSync(state, { recursive: true, force: true });
});

const FORGED = "http://127.0.0.1:8787";
const OWNER = "https://clinic.example";
const SITE = "clinic-site-key-0001";

function openSession(siteKey: string, origin: string) {
  return fetch(`${dev.url}/v1/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ siteKey, agentId: "derm-consult" }),
  });
}

describe("a worker without demo mode, over the network", () => {
  it("serves no demo page, script or style, only the widget's own files", async () => {
    for (const page of ["/", "/index.html", "/qa.html", "/portal.html"]) {
      const res = await fetch(`${dev.url}${page}`);
      expect(res.status, page).toBe(404);
      expect(await res.text(), page).not.toContain("demo-site-key-0001");
    }
    for (const file of ["/demo.js", "/portal.js", "/hostile.css", "/clinic.css"]) {
      const res = await fetch(`${dev.url}${file}`);
      expect(res.status, file).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code, file).toBe("not_found");
    }
    for (const file of ["/parley.js", "/parley-widget.js", "/parley.css", "/console/console.js"]) {
      const res = await fetch(`${dev.url}${file}`);
      expect(res.status, file).toBe(200);
      // The static assets' own headers (widget/demo/_headers), as the worker's answers carry them.
      expect(res.headers.get("x-content-type-options"), file).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), file).toBe("strict-origin-when-cross-origin");
      await res.body?.cancel();
    }
  });

  it("serves presets installed with presets:install --local, for the owner's origin only", async () => {
    // Written while the worker is stopped (local workerd holds its storage open), then started again.
    await dev.stop();
    const install = spawnSync(
      "npx",
      [
        "tsx",
        "scripts/presets-install.ts",
        "--site",
        SITE,
        "--origin",
        OWNER,
        "--agent",
        "derm-consult",
        "--local",
        "--persist-to",
        dev.state,
      ],
      { encoding: "utf8", env: { ...process.env, ...OFFLINE_ENV } },
    );
    expect(install.status, install.stderr).toBe(0);
    dev = await deployed();
    expect((await openSession(SITE, FORGED)).status).toBe(403);
    const res = await openSession(SITE, OWNER);
    expect(res.status).toBe(201);
    const session = (await res.json()) as SessionResponse;
    const chat = await fetch(`${dev.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: OWNER, authorization: `Bearer ${session.token}` },
      body: JSON.stringify({
        stream: false,
        messages: [{ id: "q", role: "user", content: "I have a red itchy rash on my arm" }],
      }),
    });
    expect(chat.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });
});
