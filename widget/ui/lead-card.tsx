import { useRef, useState } from "preact/hooks";
import { localize } from "../../shared/config/localize.ts";
import type { ActionCard } from "../../shared/config/stage-config.ts";
import type { WidgetLocale } from "../i18n/index.ts";
import type { ChatStore } from "../state/chat-store.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { addChunkCss } from "./chunk-css.ts";
import CSS from "./lead-card.css?inline";
import { leadStrings } from "./lead-strings.ts";
import type { FieldValues } from "../../shared/stages/field-value.ts";

addChunkCss(CSS);

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;
type Field = "name" | "email" | "consent";

/**
 * A lead card's form: name, e-mail, company and the visitor's own consent (a box left unticked until
 * they tick it). Only a ticked box sends; the worker checks the same again before anything reaches the
 * owner's CRM (`lead.captured`).
 */
export function LeadForm(props: {
  card: ActionCard;
  locale: WidgetLocale;
  send: (result: FieldValues) => Promise<boolean>;
}) {
  const t = leadStrings(props.locale);
  const [form, setForm] = useState({ name: "", email: "", company: "", consent: false });
  const [invalid, setInvalid] = useState<Field | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const id = `lead-${props.card.id}`;
  const problems: Record<Field, string> = { name: t.needName, email: t.needEmail, consent: t.needConsent };

  const submit = async (e: Event) => {
    e.preventDefault();
    const wrong: Field | null = !form.name.trim()
      ? "name"
      : !EMAIL.test(form.email.trim())
        ? "email"
        : !form.consent
          ? "consent"
          : null;
    setInvalid(wrong);
    setFailed(false);
    if (wrong) return void formRef.current?.querySelector<HTMLElement>(`[name=${wrong}]`)?.focus();
    setBusy(true);
    const result = { name: form.name.trim(), email: form.email.trim(), company: form.company.trim(), consent: "yes" };
    const ok = await props.send(result).catch(() => false);
    setBusy(false);
    setFailed(!ok);
  };
  const attrs = (field: Field) =>
    invalid === field ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};

  return (
    <form
      ref={formRef}
      class="lead-form"
      onSubmit={submit}
      aria-label={localize(props.card.title, props.locale)}
      noValidate
    >
      <label>
        {t.name}
        <input
          class="input"
          name="name"
          autocomplete="name"
          value={form.name}
          {...attrs("name")}
          onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
        />
      </label>
      <label>
        {t.email}
        <input
          class="input"
          name="email"
          type="email"
          autocomplete="email"
          value={form.email}
          {...attrs("email")}
          onInput={(e) => setForm({ ...form, email: e.currentTarget.value })}
        />
      </label>
      <label>
        {t.company}
        <input
          class="input"
          name="company"
          autocomplete="organization"
          value={form.company}
          onInput={(e) => setForm({ ...form, company: e.currentTarget.value })}
        />
      </label>
      <label class="lead-consent">
        <input
          type="checkbox"
          name="consent"
          checked={form.consent}
          {...attrs("consent")}
          onChange={(e) => setForm({ ...form, consent: e.currentTarget.checked })}
        />
        <span>{t.consent}</span>
      </label>
      {(invalid || failed) && (
        <p class="form-error" id={`${id}-error`} role="alert">
          {invalid ? problems[invalid] : t.failed}
        </p>
      )}
      <button type="submit" class="send small" disabled={busy}>
        {busy ? t.sending : t.send}
      </button>
    </form>
  );
}

/** Posts what the visitor sent as the card's action (the route the stage panel's cards use), its events folded in. */
async function sendLead(store: ChatStore, stageId: string, cardId: string, result: FieldValues): Promise<boolean> {
  const { session } = store.stageApi;
  const res = await session.api.call(ROUTES.action, session.auth(), { body: { stageId, result } }, { cardId });
  if (res.events?.length) session.apply(res.events);
  return true;
}

/**
 * The lead card the agent raised in the chat (offer_lead_card): the form until the visitor sends it,
 * then what happens next. Sent is read from the session (the card's action stored by the worker), so a
 * reload or another tab shows the same.
 */
export function LeadCard({ store }: { store: ChatStore }) {
  const state = store.state.value;
  const offer = state.leads?.at(-1);
  const stage = offer && store.agent.value?.stages.find((s) => s.id === offer.stageId);
  const card = stage?.actionCards.find((c) => c.id === offer?.cardId);
  if (!offer || !card) return null;
  const t = leadStrings(store.locale);
  const sent = [...state.actions]
    .reverse()
    .find((a) => a.stageId === offer.stageId && a.cardId === card.id && a.at >= offer.at);
  const title = localize(card.title, store.locale);
  return (
    <section class="lead-card" aria-label={title} data-lead={sent ? "sent" : "open"}>
      <h3>{title}</h3>
      {sent ? (
        <p role="status">
          {typeof sent.result.email === "string" ? t.sent.replace("{email}", sent.result.email) : t.sentNoEmail}
        </p>
      ) : (
        <>
          <p>{card.description ? localize(card.description, store.locale) : t.intro}</p>
          <LeadForm
            card={card}
            locale={store.locale}
            send={(result) => sendLead(store, offer.stageId, card.id, result)}
          />
        </>
      )}
    </section>
  );
}
