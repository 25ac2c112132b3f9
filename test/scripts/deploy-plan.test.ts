import { describe, expect, it } from "vitest";
import { SiteConfig } from "../../shared/config/agent-config.ts";
import { deployOptions, siteKeyFor, UsageError } from "../../scripts/deploy/options.ts";
import { planSecrets } from "../../scripts/deploy/secrets.ts";
import { planSite, siteKeys } from "../../scripts/deploy/site-plan.ts";

/** What `npm run deploy` decides to write, from what it found: only what is missing. */
const OPTS = { siteKey: "clinic-example", origins: ["https://www.clinic.example"], agents: ["derm-consult"] };
const none = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, null]));
const adminKey = () => ({ key: "the-admin-key", sha256: "a".repeat(64) });

/** The KV state after writing a plan's entries over `before`. */
const after = (before: Record<string, string | null>, entries: Array<{ key: string; value: string }>) => ({
  ...before,
  ...Object.fromEntries(entries.map((e) => [e.key, e.value])),
});

describe("the deploy's site plan", () => {
  it("creates a new site: its config with an admin key's digest, its origins, its agents", () => {
    const plan = planSite(OPTS, none(siteKeys(OPTS.siteKey, OPTS.origins, OPTS.agents)), adminKey);
    expect(plan.created).toBe(true);
    expect(plan.adminKey).toBe("the-admin-key");
    expect(plan.entries.map((e) => e.key)).toEqual([
      "site:clinic-example",
      "origin:https://www.clinic.example",
      "site-agent:clinic-example:derm-consult",
    ]);
    const site = SiteConfig.parse(JSON.parse(plan.entries[0].value));
    expect(site).toMatchObject({
      allowedOrigins: OPTS.origins,
      agents: ["derm-consult"],
      adminKeySha256: "a".repeat(64),
    });
  });

  it("changes nothing on a second run, and adds only what a later run asks for", () => {
    const keys = siteKeys(OPTS.siteKey, OPTS.origins, OPTS.agents);
    const first = after(none(keys), planSite(OPTS, none(keys), adminKey).entries);
    const again = planSite(OPTS, first, adminKey);
    expect(again).toMatchObject({ entries: [], changes: [], created: false });
    expect(again.adminKey).toBeUndefined();

    const more = {
      ...OPTS,
      origins: [...OPTS.origins, "https://book.clinic.example"],
      agents: ["derm-consult", "medical-qa"],
    };
    const found = { ...none(siteKeys(more.siteKey, more.origins, more.agents)), ...first };
    const grown = planSite(more, found, () => {
      throw new Error("the site keeps its admin key");
    });
    expect(grown.entries.map((e) => e.key)).toEqual([
      "site:clinic-example",
      "origin:https://book.clinic.example",
      "site-agent:clinic-example:medical-qa",
    ]);
    const site = SiteConfig.parse(JSON.parse(grown.entries[0].value));
    expect(site.allowedOrigins).toEqual(more.origins);
    expect(site.agents).toEqual(["derm-consult", "medical-qa"]);
    expect(site.adminKeySha256).toBe("a".repeat(64));
  });

  it("refuses an origin another site owns", () => {
    const found = {
      ...none(siteKeys(OPTS.siteKey, OPTS.origins, OPTS.agents)),
      "origin:https://www.clinic.example": "other",
    };
    expect(() => planSite(OPTS, found, adminKey)).toThrow(/belongs to site other/);
  });
});

describe("the deploy's secrets", () => {
  it("makes SESSION_SECRET, takes the provider's from the options, and keeps any set already", () => {
    const fresh = planSecrets(new Set(), { providerUrl: "https://api.example/v1", providerKey: "sk-1" });
    expect(Object.keys(fresh.set)).toEqual(["SESSION_SECRET", "LLM_BASE_URL", "LLM_API_KEY"]);
    expect(fresh.set.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/);
    const kept = planSecrets(new Set(["SESSION_SECRET", "LLM_BASE_URL", "LLM_API_KEY"]), { providerKey: "sk-2" });
    expect(kept.set).toEqual({});
    expect(kept.lines.every((l) => l.endsWith("set already, kept"))).toBe(true);
    expect(planSecrets(new Set(), {}).lines.at(-1)).toMatch(/LLM_API_KEY: not set/);
  });
});

describe("the deploy's options", () => {
  it("names the site after its first origin, so a second run finds it", () => {
    expect(siteKeyFor("https://www.clinic.example")).toBe("clinic-example");
    expect(deployOptions(["--origin", "https://www.clinic.example"], {}).siteKey).toBe("clinic-example");
  });

  it("refuses an origin that is not exact and an unknown template", () => {
    expect(() => deployOptions(["--origin", "https://clinic.example/"], {})).toThrow(UsageError);
    expect(() => deployOptions(["--origin", "https://a.example", "--agent", "nope"], {})).toThrow(/No agent template/);
    expect(() => deployOptions([], {})).toThrow(/--origin/);
  });
});
