import { useEffect, useRef, useState } from "preact/hooks";
import { errorText } from "../i18n/index.ts";
import { fill, takeoverStrings, type TakeoverStrings } from "../i18n/takeover-strings.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { askForPerson, leaveContact } from "../state/takeover-actions.ts";
import type { PersonItem } from "../state/transcript.ts";
import { errorCode } from "../transport/errors.ts";
import { addChunkCss } from "./chunk-css.ts";
import { Markdown } from "./markdown.tsx";
import { MessageTime } from "./message-time.tsx";
import CSS from "./takeover.css?inline";

addChunkCss(CSS);

/**
 * A person from the site's staff in the conversation (takeover): the line saying they joined
 * or handed back, or their message, named and drawn apart from the assistant's. Their text is untrusted
 * like the model's: the same markdown-to-elements path, never HTML.
 */
export function PersonLine({ item, store }: { item: PersonItem; store: ChatStore }) {
  const t = takeoverStrings(store.locale);
  if (item.content === undefined)
    return (
      <div class="handoff" data-handoff={item.back ? "back" : "joined"}>
        <span>{item.back ? t.back : fill(t.joined, { name: item.name })}</span>
      </div>
    );
  return (
    <div class="msg person" data-role="person">
      <div class="who" aria-hidden="true">
        <span class="initial">{item.name.slice(0, 1).toUpperCase()}</span>
        {item.name}
        <span class="tag">{t.staff}</span>
      </div>
      <span class="sr">
        {item.name} ({t.staff}):{" "}
      </span>
      <div class="bubble">
        <Markdown text={item.content} />
      </div>
      <MessageTime at={item.at} locale={store.locale} />
    </div>
  );
}

/** mm:ss, for the visitor's waiting time. */
const clock = (ms: number) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

function Waiting({ since, t }: { since: number; t: TakeoverStrings }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div class="takeover waiting" data-takeover="queued">
      <span class="dot" aria-hidden="true" />
      <span role="status">{t.waiting}</span>
      <span class="waited">{fill(t.waited, { time: clock(now - since) })}</span>
      <span class="hint">{t.keepChatting}</span>
    </div>
  );
}

/** Nobody could come: the site's words, then a small form for a way to reach the visitor, then thanks. */
function Unavailable({
  store,
  t,
  message,
  left,
}: {
  store: ChatStore;
  t: TakeoverStrings;
  message?: string;
  left?: string;
}) {
  const [name, setName] = useState("");
  const [contact, setContact] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  if (left)
    return (
      <div class="takeover" data-takeover="contact-left" role="status">
        {fill(t.contactThanks, { contact: left })}
      </div>
    );
  return (
    <form
      class="takeover contact"
      data-takeover="unavailable"
      aria-label={t.contactTitle}
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError("");
        const body = { contact: contact.trim(), ...(name.trim() ? { name: name.trim() } : {}) };
        leaveContact(store.takeover, { ...body, ...(note.trim() ? { note: note.trim() } : {}) })
          .catch((err: unknown) => setError(errorText(store.strings, errorCode(err), undefined, store.locale)))
          .finally(() => setBusy(false));
      }}
    >
      <p role="status">{message || t.nobody}</p>
      <p class="title">{t.contactTitle}</p>
      <label>
        {t.contactName}
        <input value={name} maxLength={100} autocomplete="name" onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        {t.contactWay}
        <input
          value={contact}
          required
          minLength={3}
          maxLength={200}
          autocomplete="email"
          onInput={(e) => setContact(e.currentTarget.value)}
        />
      </label>
      <label>
        {t.contactNote}
        <textarea value={note} rows={2} maxLength={2000} onInput={(e) => setNote(e.currentTarget.value)} />
      </label>
      {error && <p role="alert">{error}</p>}
      <button type="submit" class="chip" disabled={busy}>
        {t.contactSend}
      </button>
    </form>
  );
}

/**
 * Tells assistive tech when a person joins, writes or hands back (the panel's live region): only what
 * happens while the panel is open, not what a restored conversation already holds.
 */
function useAnnouncements(store: ChatStore, t: TakeoverStrings) {
  const { handoffs = [], messages } = store.state.value;
  const handoff = handoffs.at(-1);
  const staff = messages.filter((m) => m.author).at(-1);
  const latest = handoff && (!staff || handoff.at > staff.at) ? handoff : staff;
  const key = latest ? `${latest.at}:${"id" in latest ? latest.id : ""}` : "";
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (seen.current !== null && key !== seen.current && latest)
      store.announcement.value =
        "content" in latest
          ? `${latest.author?.name}: ${latest.content}`
          : latest.back
            ? t.back
            : fill(t.joined, { name: latest.name });
    seen.current = key;
  }, [key]);
}

/**
 * Above the composer, where the site hands conversations to its staff: "Talk to a person", then the
 * wait (counting), or who handles the chat now, or nobody available and the contact form.
 */
export function TakeoverBar({ store }: { store: ChatStore }) {
  const t = takeoverStrings(store.locale);
  const { handler, personRequest: req, contacts = [] } = store.state.value;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  useAnnouncements(store, t);
  if (handler?.kind === "person")
    return (
      <div class="takeover with" data-takeover="person">
        <span class="initial" aria-hidden="true">
          {handler.name.slice(0, 1).toUpperCase()}
        </span>
        {fill(t.withPerson, { name: handler.name })}
      </div>
    );
  if (req?.status === "queued") return <Waiting since={req.at} t={t} />;
  const left = req && contacts.filter((c) => c.at >= req.at).at(-1)?.contact;
  if (req?.status === "unavailable" && !left)
    return <Unavailable store={store} t={t} message={req.unavailable?.message} />;
  if (!store.agent.value?.tools.includes("ask_for_person")) return null;
  return (
    <div class="takeover ask">
      {left && <Unavailable store={store} t={t} left={left} />}
      <button
        type="button"
        class="link-btn"
        data-action="ask-person"
        title={t.askHint}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError("");
          askForPerson(store.takeover)
            // Their joining must be heard even before the first reply opened the live channel.
            .then(() => store.goLive())
            .catch((err: unknown) => setError(errorText(store.strings, errorCode(err), undefined, store.locale)))
            .finally(() => setBusy(false));
        }}
      >
        {t.ask}
      </button>
      {error && <span role="alert">{error}</span>}
    </div>
  );
}
