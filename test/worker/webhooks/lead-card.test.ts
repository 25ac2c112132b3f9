import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { AgentConfigInput } from "../../../shared/config/agent-config.ts";
import { auth, call, openSession } from "../../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../../helpers/worker/sites.ts";
import { addEndpoint, HOOK_ADMIN, receiver, verified, waitFor } from "../../helpers/worker/webhooks.ts";

const label = (en: string) => ({ en, "zh-CN": en });

/** A sales agent's lead card: the visitor's name, e-mail, company and consent, sent as lead.captured. */
async function leadSite() {
  const agentId = `lead-${crypto.randomUUID().slice(0, 8)}`;
  const agent: AgentConfigInput = {
    id: agentId,
    name: label("Sales"),
    description: label(""),
    greeting: label("Hi"),
    systemPrompt: "You help visitors choose a plan.",
    model: "gpt-4o-mini",
    stages: [
      {
        id: "qualify",
        name: label("Qualify"),
        order: 1,
        instruction: "Offer the lead card when the visitor wants to be contacted.",
        fields: [{ key: "need", label: label("Need"), type: "string" }],
        next: null,
        transition: "user_confirm",
        actionCards: [
          {
            id: "lead",
            type: "modal",
            lead: true,
            title: label("Talk to our team"),
            form: [
              { key: "name", label: label("Name"), type: "string" },
              { key: "email", label: label("E-mail"), type: "string" },
              { key: "company", label: label("Company"), type: "string" },
              { key: "consent", label: label("You may contact me"), type: "enum", options: ["yes", "no"] },
            ],
          },
        ],
      },
    ],
  };
  await env.CONFIG.put(`agent:${agentId}`, JSON.stringify(agent));
  const siteKey = await putSite({ agents: [agentId], adminKeySha256: await sha256Hex(HOOK_ADMIN) });
  return { siteKey, agentId };
}

describe("the lead card", () => {
  it("sends name, e-mail, company and consent as one signed lead.captured, and nothing without consent", async () => {
    const { siteKey, agentId } = await leadSite();
    const r = receiver();
    const ep = await addEndpoint(siteKey, r.url, ["lead.captured"]);
    const s = await openSession(agentId, {}, { siteKey });
    const post = (result: Record<string, unknown>) =>
      call(`/v1/sessions/${s.sessionId}/actions/lead`, {
        method: "POST",
        headers: auth(s.token),
        json: { stageId: "qualify", result },
      });
    const lead = { name: " Ada Lovelace ", email: "Ada@Example.com", company: "Analytical Ltd", consent: "yes" };
    for (const [bad, path] of [
      [{ ...lead, consent: "no" }, "result.consent"],
      [{ ...lead, email: "not-an-address" }, "result.email"],
      [{ ...lead, name: "" }, "result.name"],
    ] as const) {
      const { res } = await post(bad);
      const body = (await res.json()) as any;
      expect([res.status, body.error.code, body.error.issues[0].path]).toEqual([400, "validation_failed", path]);
    }
    const ok = await post({ ...lead, planted: "an extra field" });
    expect(ok.res.status).toBe(200);
    await ok.done();
    const again = await post({ ...lead, planted: "an extra field" });
    await again.done();
    const [hook] = await waitFor(r.log, (l) => l.length >= 1);
    await new Promise((res) => setTimeout(res, 200));
    expect(await r.log()).toHaveLength(1);
    expect(verified(hook, ep.secret)).toMatchObject({
      type: "lead.captured",
      data: {
        conversation: s.sessionId,
        agentId,
        stageId: "qualify",
        cardId: "lead",
        lead: { name: "Ada Lovelace", email: "ada@example.com", company: "Analytical Ltd", consent: true },
      },
    });
    expect(hook.body).not.toContain("planted");
  });
});
