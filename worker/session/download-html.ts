import type { AgentConfig } from "../../shared/config/agent-config.ts";
import { localize } from "../../shared/config/localize.ts";
import type { SessionState } from "../../shared/session/session.ts";
import { downloadStrings, type DownloadStrings } from "./download-strings.ts";
import type { Advice, StoredMessage } from "../../shared/session/session-events.ts";
import type { FieldValue } from "../../shared/stages/field-value.ts";

/** A photo of the session as the file holds it: its bytes as a data: URL, or too large to embed. */
export type EmbeddedPhoto = { url: string } | { tooLarge: true };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Every text in the file is the visitor's, the model's or the site's: escaped, never markup. */
const esc = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
/**
 * A reply's text, escaped, with its markdown's bold and headings read as a person would (the file has
 * no markdown renderer): `**x**` bold, a line's leading `#`s dropped. Markup is added after escaping.
 */
const replyText = (text: string) =>
  esc(text.replace(/^#{1,6}\s+/gm, "")).replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>");
const when = (at: number) => new Date(at).toISOString().slice(0, 16).replace("T", " ") + " UTC";

/**
 * The file allows nothing but its own styles and its embedded photos: it opens from disk, offline,
 * and a text in it cannot load or run anything, whatever it says.
 */
const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2430}
main{max-width:760px;margin:0 auto;padding:24px}
h1{font-size:1.5rem;margin:0 0 4px}h2{font-size:1.15rem;margin:28px 0 8px}h3{font-size:1rem;margin:0 0 4px}
.meta,.who,footer{color:#556072;font-size:.875rem}
ol{list-style:none;padding:0;margin:0}
.msg{background:#fff;border:1px solid #dde2ea;border-radius:10px;padding:10px 14px;margin:0 0 10px}
.msg.user{background:#eaf1ff;border-color:#c9d9fb}.msg.staff{background:#effaf2;border-color:#c6e9cf}
.who{margin:0 0 4px}.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
img{max-width:100%;max-height:420px;border-radius:8px;display:block;margin:8px 0}
.card{background:#fff;border:1px solid #dde2ea;border-left:4px solid #4c7bd9;border-radius:8px;
padding:10px 14px;margin:0 0 10px}
.card.caution{border-left-color:#d99a1c}.card.urgent{border-left-color:#c4362c}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0 0 12px}
dt{font-weight:600}dd{margin:0}
@media (prefers-color-scheme:dark){body{background:#15181d;color:#e6e9ee}
.msg,.card{background:#1f242c;border-color:#333b47}.msg.user{background:#1c2a44;border-color:#2c4370}
.msg.staff{background:#1b3225;border-color:#2c5138}.meta,.who,footer{color:#a3adbb}}
`;

/**
 * The visitor's copy of their conversation as one HTML file that opens offline: the messages (theirs,
 * the assistant's, staff's), the advice and urgent cards, the values of each stage, the contact details
 * they left, and their photos embedded; in the session's language. Pure: the route reads the photos.
 */
export function downloadHtml(
  state: SessionState,
  agent: AgentConfig | null,
  photos: ReadonlyMap<string, EmbeddedPhoto>,
  now: number,
): string {
  const locale = state.locale ?? "en";
  const t = downloadStrings(locale);
  const agentName = agent ? localize(agent.name, locale) : state.agentId;
  const shown = new Set<string>();
  const photo = (id: string) => {
    const p = photos.get(id);
    if (!p || shown.has(id)) return "";
    shown.add(id);
    return "url" in p ? `<img src="${esc(p.url)}" alt="${esc(t.photo)}">` : `<p>${esc(t.notEmbedded(id))}</p>`;
  };
  const sections = [
    consentSection(state, t),
    messagesSection(state.messages, agentName, t, photo),
    adviceSection(state, t, photo),
    stagesSection(state, agent, locale, t),
    contactsSection(state, t),
  ];
  const rest = [...photos.keys()].map(photo).join("");
  if (rest) sections.push(`<section><h2>${esc(t.photos)}</h2>${rest}</section>`);
  const title = t.title(agentName);
  const opened = when(state.openedAt ?? state.messages[0]?.at ?? now);
  return (
    `<!doctype html><html lang="${locale.startsWith("zh") ? "zh-CN" : "en"}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    `<title>${esc(title)}</title><style>${STYLE}</style></head><body><main>` +
    `<h1>${esc(title)}</h1><p class="meta">${esc(t.meta(state.sessionId, opened, when(now)))}</p>` +
    sections.join("") +
    `<footer><p>${esc(t.footer)}</p></footer></main></body></html>`
  );
}

function consentSection(state: SessionState, t: DownloadStrings): string {
  const { chat, photo } = state.consent ?? {};
  const lines = [
    chat ? t.agreedChat(chat.version, when(chat.at)) : "",
    photo ? t.agreedPhoto(photo.version, when(photo.at)) : "",
  ].filter(Boolean);
  return lines.length
    ? `<section><h2>${esc(t.consent)}</h2>${lines.map((l) => `<p>${esc(l)}</p>`).join("")}</section>`
    : "";
}

/** What the visitor saw: their messages and the replies with text (tool steps and results are not shown). */
function messagesSection(
  messages: readonly StoredMessage[],
  agentName: string,
  t: DownloadStrings,
  photo: (id: string) => string,
): string {
  const items = messages
    .filter((m) => m.role === "user" || (m.role === "assistant" && m.content.trim()))
    .map((m) => {
      const kind = m.role === "user" ? "user" : m.author ? "staff" : "assistant";
      const who = kind === "user" ? t.you : m.author ? t.staff(m.author.name) : agentName;
      const stopped = m.status === "interrupted" ? ` ${t.stopped}` : "";
      return (
        `<li class="msg ${kind}"><p class="who">${esc(who)} · ${when(m.at)}${esc(stopped)}</p>` +
        `<p class="text">${kind === "user" ? esc(m.content) : replyText(m.content)}</p>` +
        `${(m.photos ?? []).map(photo).join("")}</li>`
      );
    });
  return `<section><h2>${esc(t.conversation)}</h2><ol>${items.join("")}</ol></section>`;
}

function adviceSection(state: SessionState, t: DownloadStrings, photo: (id: string) => string): string {
  const card = (a: Advice) =>
    `<article class="card ${esc(a.severity)}"><h3>${esc(a.title)}</h3>` +
    `<p class="who">${esc(t.severity[a.severity] ?? a.severity)}</p><p class="text">${esc(a.content)}</p>` +
    (a.evidence.length
      ? `<p class="who">${esc(t.basedOn)}</p><ul>${a.evidence.map((e) => `<li>${esc(e)}</li>`).join("")}</ul>`
      : "") +
    (a.photos ?? []).map(photo).join("") +
    `</article>`;
  const urgent = (state.escalations ?? []).map(
    (e) =>
      `<article class="card urgent"><h3>${esc(e.title)}</h3><p class="who">${esc(t.urgent)} · ${when(e.at)}</p>` +
      `<p class="text">${esc(e.body)}</p><ul>${e.contacts
        .map((c) => `<li>${esc(c.label)}: ${esc(c.number)}</li>`)
        .join("")}</ul></article>`,
  );
  const cards = [...urgent, ...state.advice.map(card)];
  return cards.length ? `<section><h2>${esc(t.advice)}</h2>${cards.join("")}</section>` : "";
}

const valueText = (v: FieldValue) => (Array.isArray(v) ? v.join(", ") : v === null ? "" : String(v));

/** The values collected in each stage, under the stage's and the fields' names where the agent has them. */
function stagesSection(state: SessionState, agent: AgentConfig | null, locale: string, t: DownloadStrings): string {
  const blocks = Object.entries(state.context).flatMap(([stageId, values]) => {
    const stage = agent?.stages.find((s) => s.id === stageId);
    const rows = Object.entries(values)
      .filter(([, v]) => valueText(v) !== "")
      .map(([key, v]) => {
        const field = stage?.fields.find((f) => f.key === key);
        return `<dt>${esc(field ? localize(field.label, locale) : key)}</dt><dd>${esc(valueText(v))}</dd>`;
      });
    if (!rows.length) return [];
    return [`<h3>${esc(stage ? localize(stage.name, locale) : stageId)}</h3><dl>${rows.join("")}</dl>`];
  });
  return blocks.length ? `<section><h2>${esc(t.told)}</h2>${blocks.join("")}</section>` : "";
}

function contactsSection(state: SessionState, t: DownloadStrings): string {
  const rows = (state.contacts ?? []).map(
    (c) => `<dl><dt>${when(c.at)}</dt><dd>${esc([c.name, c.contact, c.note].filter(Boolean).join(" · "))}</dd></dl>`,
  );
  return rows.length ? `<section><h2>${esc(t.contacts)}</h2>${rows.join("")}</section>` : "";
}
