import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { contextEvent, messageEvent } from "../../shared/session/events.ts";
import { adviceEvent } from "../../shared/chat/step-events.ts";
import { agreeToPhotos, auth, call, openSession } from "../helpers/worker/client.ts";
import { bareJpeg } from "../helpers/photo-bytes.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * The visitor downloads their conversation with the session's token alone: one HTML file that opens
 * offline (messages, advice cards, stage values, their photos embedded, every text escaped) or the
 * JSON; another session's token and an erased session's get 404.
 */
const json = async (r: Response) => (await r.json()) as any;
const download = (s: { sessionId: string; token: string }, query = "", token = s.token) =>
  call(`/v1/sessions/${s.sessionId}/download${query}`, { headers: auth(token) });

/** A consult with a photo in the visitor's message, a reply, an advice card on the photo, a stage value. */
async function consult() {
  const s = await openSession("derm-consult");
  await agreeToPhotos(s);
  const photoId = async () => {
    const up = await call(`/v1/sessions/${s.sessionId}/photos`, {
      method: "POST",
      body: bareJpeg(),
      headers: { ...auth(s.token), "content-type": "image/jpeg" },
    });
    return (await json(up.res)).id as string;
  };
  const [sent, unsent] = [await photoId(), await photoId()];
  const at = Date.now();
  await sessionRoom(env, s.sessionId).append([
    messageEvent({ id: "u1", role: "user", content: "My arm <script>alert(1)</script> itches", photos: [sent], at }),
    messageEvent({
      id: "r1",
      role: "assistant",
      content: "## Likely\nIt looks like **mild eczema** & dry skin. **<b>x</b>**",
      status: "complete",
      at,
    }),
    adviceEvent({
      id: "adv1",
      title: "Moisturise twice a day",
      content: "Use a fragrance-free cream.",
      evidence: ["dry patches on the photo"],
      severity: "caution",
      category: "skin",
      photos: [sent],
      messageId: "r1",
      at,
    }),
    contextEvent("intake", { duration: "a week", areas: ["arm", "neck"] }, "visitor", at),
  ]);
  return { s, sent, unsent };
}

describe("GET /v1/sessions/:id/download", () => {
  it("answers one offline HTML file: messages, advice, stage values, photos embedded, texts escaped", async () => {
    const { s, sent, unsent } = await consult();
    const { res } = await download(s);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="conversation-${s.sessionId}.html"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain(`content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"`);
    expect(html).toContain("My arm &lt;script&gt;alert(1)&lt;/script&gt; itches");
    expect(html).not.toContain("<script");
    // A reply's markdown bold and headings read as text would (no renderer in the file), after escaping.
    expect(html).toContain("Likely\nIt looks like <strong>mild eczema</strong> &amp; dry skin.");
    expect(html).toContain("<strong>&lt;b&gt;x&lt;/b&gt;</strong>");
    expect(html).not.toContain("<b>");
    expect(html).toContain("Moisturise twice a day");
    expect(html).toContain("dry patches on the photo");
    expect(html).toContain("<dd>a week</dd>");
    expect(html).toContain("<dd>arm, neck</dd>");
    // Both photos embedded once each (the one sent in the message, the one never sent), as data: URLs.
    const photo = "data:image/jpeg;base64," + btoa(String.fromCharCode(...bareJpeg()));
    expect(html.split(`src="${photo}"`).length - 1).toBe(2);
    expect(html).not.toContain("http://");
    expect(html).not.toMatch(/src="https?:/);
    expect([sent, unsent].every((id) => !html.includes(`/photos/${id}`))).toBe(true);
  });

  it("writes the file in the session's language", async () => {
    const { res: opened } = await call("/v1/sessions", {
      method: "POST",
      json: { siteKey: "demo-site-key-0001", agentId: "protocol-designer", locale: "zh-CN" },
    });
    const s = await json(opened);
    await call("/v1/tools/record_stage_data", {
      method: "POST",
      headers: auth(s.token),
      json: { arguments: { values: { research_question: "润肤剂能否减少湿疹发作？" } } },
    });
    const html = await (await download(s)).res.text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain("您提供的信息");
    expect(html).toContain("<dt>研究问题</dt><dd>润肤剂能否减少湿疹发作？</dd>");
  });

  it("answers the JSON: the session as the widget restores it, and the photos' ids and sizes", async () => {
    const { s, sent, unsent } = await consult();
    const { res } = await download(s, "?format=json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="conversation-${s.sessionId}.json"`);
    const body = await json(res);
    expect(body.conversation).toEqual(await sessionRoom(env, s.sessionId).getState());
    expect(body.photos.map((p: { id: string }) => p.id)).toEqual([sent, unsent]);
    expect(body.conversation.consent.photo.version).toBe("1");
  });

  it("opens with the session's own token only: another's is 404, none is 401, a bad format 400", async () => {
    const { s } = await consult();
    const other = await openSession("derm-consult");
    expect((await download(s, "", other.token)).res.status).toBe(404);
    expect((await call(`/v1/sessions/${s.sessionId}/download`)).res.status).toBe(401);
    expect((await download(s, "?format=pdf")).res.status).toBe(400);
  });
});
