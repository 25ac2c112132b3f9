import { describe, expect, it } from "vitest";
import { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { presetEntries } from "../../scripts/preset-entries.ts";

const DIGEST = "a".repeat(64);

describe("presets:install entries (what `wrangler kv bulk put` writes)", () => {
  it("writes each preset agent, the owner's site and its origins, each valid for the worker's schemas", () => {
    const entries = presetEntries({
      siteKey: "clinic-site-key-0001",
      origins: ["https://www.clinic.example", "https://portal.clinic.example"],
      agents: ["derm-consult", "protocol-designer"],
      adminKeySha256: DIGEST.toUpperCase(),
    });
    expect(entries.map((e) => e.key)).toEqual([
      "agent:derm-consult",
      "agent:protocol-designer",
      "site:clinic-site-key-0001",
      "origin:https://www.clinic.example",
      "origin:https://portal.clinic.example",
    ]);
    for (const e of entries.filter((e) => e.key.startsWith("agent:"))) {
      expect(AgentConfig.parse(JSON.parse(e.value)).id).toBe(e.key.slice("agent:".length));
    }
    const site = SiteConfig.parse(JSON.parse(entries.find((e) => e.key.startsWith("site:"))!.value));
    expect(site).toMatchObject({
      siteKey: "clinic-site-key-0001",
      tenantId: "clinic-site-key-0001",
      // A new site redacts personal details from what staff and logs read; no jurisdiction unless asked.
      redactTraces: true,
      adminKeySha256: DIGEST,
      allowedOrigins: ["https://www.clinic.example", "https://portal.clinic.example"],
      agents: ["derm-consult", "protocol-designer"],
    });
    expect(site.jurisdiction).toBeUndefined();
    // Nothing of the demo site comes along: no loopback origin, no published admin key.
    expect(JSON.stringify(entries)).not.toMatch(/127\.0\.0\.1|localhost|demo-site-key|ec8870e7/);
  });

  it("installs every preset agent when none is named", () => {
    const keys = presetEntries({ siteKey: "clinic-site-key-0001", origins: ["https://a.example"] }).map((e) => e.key);
    expect(keys.filter((k) => k.startsWith("agent:")).sort()).toEqual([
      "agent:derm-consult",
      "agent:medical-qa",
      "agent:protocol-designer",
      "agent:sales-coach",
    ]);
  });

  it("places the site's conversations in the jurisdiction asked for", () => {
    const entries = presetEntries({
      siteKey: "clinic-site-key-0001",
      origins: ["https://a.example"],
      jurisdiction: "eu",
    });
    const site = SiteConfig.parse(JSON.parse(entries.find((e) => e.key.startsWith("site:"))!.value));
    expect(site.jurisdiction).toBe("eu");
  });

  it.each([
    ["an origin with a path", { origins: ["https://a.example/shop"] }, /exact origin/],
    [
      "a jurisdiction Cloudflare does not offer",
      { origins: ["https://a.example"], jurisdiction: "us" },
      /jurisdiction us/,
    ],
    ["no origin", { origins: [] }, /at least one --origin/],
    ["an unknown agent", { origins: ["https://a.example"], agents: ["nope"] }, /No preset agent nope/],
    ["a short site key", { siteKey: "short", origins: ["https://a.example"] }, /siteKey/],
    [
      "an admin key digest that is not hex SHA-256",
      { origins: ["https://a.example"], adminKeySha256: "secret" },
      /adminKeySha256/,
    ],
  ])("refuses %s", (_name, opts, message) => {
    expect(() => presetEntries({ siteKey: "clinic-site-key-0001", ...opts })).toThrow(message);
  });
});
