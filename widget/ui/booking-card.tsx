import { useState } from "preact/hooks";
import type { BookingCard as Card } from "../../shared/session/booking-fold.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { bookingStrings } from "./booking-strings.ts";
import CSS from "./booking-card.css?inline";
import { addChunkCss } from "./chunk-css.ts";
import type { FieldValues } from "../../shared/stages/field-value.ts";

addChunkCss(CSS);

const DAYS_SHOWN = 3;
const TIMES_SHOWN = 6;
const fill = (s: string, v: Record<string, string | number>) => s.replace(/\{(\w+)\}/g, (_, k) => String(v[k] ?? ""));

/** A stage workflow's fields that say who the visitor is and why they come, whatever the stage called them. */
function fromStages(context: Record<string, FieldValues>) {
  const all = Object.assign({}, ...Object.values(context)) as FieldValues;
  const pick = (re: RegExp) => {
    const key = Object.keys(all).find((k) => re.test(k) && typeof all[k] === "string");
    return key ? String(all[key]) : "";
  };
  return { name: pick(/name/i), contact: pick(/e-?mail|contact/i), reason: pick(/reason|concern|complaint|symptom/i) };
}

/**
 * The slots card (booking in the chat): the calendar's free times by day in the visitor's own time
 * zone and language, then what will be booked with their details to confirm or edit, then the
 * confirmation with a cancel link. The worker books (book_slot); the card only asks it to.
 */
export function BookingCard({ store }: { store: ChatStore }) {
  const card = store.state.value.bookings?.at(-1);
  return card ? <CardView key={card.cardId} card={card} store={store} /> : null;
}

function CardView({ card, store }: { card: Card; store: ChatStore }) {
  const t = bookingStrings(store.locale);
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const dayFmt = new Intl.DateTimeFormat(store.locale, { weekday: "short", month: "short", day: "numeric" });
  const timeFmt = new Intl.DateTimeFormat(store.locale, { hour: "2-digit", minute: "2-digit" });
  const when = (iso: string) => `${dayFmt.format(new Date(iso))} ${timeFmt.format(new Date(iso))}`;
  const [picked, setPicked] = useState<string | null>(null);
  const [all, setAll] = useState(false);
  const [form, setForm] = useState(() => fromStages(store.state.value.context));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const run = async (name: string, args: Record<string, unknown>) => {
    setBusy(true);
    setError("");
    try {
      const result = await store.runTool(name, args);
      // A slot taken meanwhile: the card now holds fresh slots; the visitor's details stay in the form.
      if (result.status === "slot_taken") setPicked(null);
    } catch (e) {
      const code = (e as { code?: string }).code;
      setError(code === "validation_failed" ? t.invalid : code === "slot_unavailable" ? t.past : t.failed);
    } finally {
      setBusy(false);
    }
  };

  if (card.booking) {
    const b = card.booking;
    return (
      <section class="booking" aria-label={card.title} data-booking={b.cancelled ? "cancelled" : "booked"}>
        <h3>{b.cancelled ? card.title : `${t.booked}: ${card.title}`}</h3>
        <p role="status">{b.cancelled ? t.cancelled : fill(t.bookedFor, { when: when(b.start) })}</p>
        {!b.cancelled && (
          <>
            <p>
              {b.name} · {b.contact}
            </p>
            <button
              class="bk-link"
              type="button"
              disabled={busy}
              onClick={() => void run("cancel_booking", { uid: b.uid })}
            >
              {t.cancelVisit}
            </button>
          </>
        )}
        {error && <p role="alert">{error}</p>}
      </section>
    );
  }

  if (picked) {
    const field = (key: keyof typeof form, label: string, type: "text" | "email" = "text") => (
      <label>
        {label}
        <input
          type={type as "text"}
          value={form[key]}
          required={key !== "reason"}
          onInput={(e) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value })}
        />
      </label>
    );
    const submit = (e: Event) => {
      e.preventDefault();
      void run("book_slot", {
        cardId: card.cardId,
        start: picked,
        name: form.name.trim(),
        contact: form.contact.trim(),
        ...(form.reason.trim() ? { reason: form.reason.trim() } : {}),
        timeZone: tz,
        language: store.locale,
      });
    };
    return (
      <section class="booking" aria-label={card.title} data-booking="confirm">
        <h3>{t.confirmTitle}</h3>
        <p>
          {card.title} · {when(picked)} ({fill(t.minutes, { n: card.lengthMinutes })})
        </p>
        <form onSubmit={submit}>
          {field("name", t.name)}
          {field("contact", t.contact, "email")}
          {field("reason", t.reason)}
          <div class="bk-actions">
            <button class="chip" type="submit" disabled={busy}>
              {busy ? t.booking : t.confirm}
            </button>
            <button class="chip" type="button" disabled={busy} onClick={() => setPicked(null)}>
              {t.changeTime}
            </button>
          </div>
        </form>
        {error && <p role="alert">{error}</p>}
      </section>
    );
  }

  const byDay = new Map<string, string[]>();
  for (const s of card.slots) {
    const day = dayFmt.format(new Date(s));
    byDay.set(day, [...(byDay.get(day) ?? []), s]);
  }
  const days = [...byDay].slice(0, all ? undefined : DAYS_SHOWN);
  const more = !all && (byDay.size > DAYS_SHOWN || days.some(([, s]) => s.length > TIMES_SHOWN));
  return (
    <section class="booking" aria-label={card.title} data-booking="slots">
      <h3>{card.title}</h3>
      {card.notice === "slot_taken" && (
        <p class="bk-note" role="alert">
          {t.slotTaken}
        </p>
      )}
      {card.slots.length ? <p>{fill(t.pickTime, { tz })}</p> : <p>{t.noTimes}</p>}
      {days.map(([day, slots]) => (
        <div key={day} role="group" aria-label={day}>
          <div class="bk-day">{day}</div>
          <div class="bk-times">
            {slots.slice(0, all ? undefined : TIMES_SHOWN).map((s) => (
              <button key={s} class="chip" type="button" data-start={s} onClick={() => setPicked(s)}>
                {timeFmt.format(new Date(s))}
              </button>
            ))}
          </div>
        </div>
      ))}
      {more && (
        <button class="bk-link" type="button" onClick={() => setAll(true)}>
          {t.moreTimes}
        </button>
      )}
    </section>
  );
}
