import { useEffect, useState } from "preact/hooks";
import type { ChatStore } from "../state/chat-store.ts";
import type { TraceEntry } from "../state/debug-slice.ts";
import { traceStrings } from "./trace-strings.ts";
import CSS from "./trace-view.css?inline";
import { addChunkCss } from "./chunk-css.ts";

addChunkCss(CSS);

type Load = { state: "loading" } | { state: "failed" } | { state: "ok"; trace: TraceEntry[] };

/** Detail values as `key: value` text (the worker's and the widget's own fields, whatever they are). */
function detailText(detail: TraceEntry["detail"]): string {
  return Object.entries(detail ?? {})
    .filter(([, v]) => v !== null && v !== "")
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(" · ");
}

/**
 * The session's trace for site owners (debug mode only; this chunk loads the first time it is
 * shown): route decisions, completions with model, tokens and ms, retries, tool calls, stage
 * completions, each with its time and outcome. Reloaded when a turn ends while it is open.
 */
export function TraceView({ store }: { store: Pick<ChatStore, "locale" | "busy" | "messages" | "fetchTrace"> }) {
  const { locale } = store;
  const s = traceStrings(locale);
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [nonce, setNonce] = useState(0);
  const settled = !store.busy.value;
  const turns = store.messages.value.length;

  useEffect(() => {
    if (!settled) return;
    let live = true;
    setLoad((l) => (l.state === "ok" ? l : { state: "loading" }));
    store.fetchTrace().then(
      (trace) => live && setLoad({ state: "ok", trace }),
      () => live && setLoad({ state: "failed" }),
    );
    return () => void (live = false);
  }, [settled, turns, nonce]);

  // Intl directly, not i18n/index.ts: importing it from here would split it out of the core bundle.
  const count = new Intl.NumberFormat(locale);
  const time = new Intl.DateTimeFormat(locale, {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hour12: false,
  });
  return (
    <div class="list trace-view" role="region" aria-label={s.title}>
      <div class="row trace-head">
        <h4>{s.title}</h4>
        <button type="button" class="link-btn small" onClick={() => setNonce(nonce + 1)}>
          {s.refresh}
        </button>
      </div>
      {load.state === "loading" && <p class="status">{s.loading}</p>}
      {load.state === "failed" && (
        <p class="status" role="alert">
          {s.failed}
        </p>
      )}
      {load.state === "ok" && load.trace.length === 0 && <p class="status">{s.empty}</p>}
      {load.state === "ok" && load.trace.length > 0 && (
        <table class="trace">
          <thead>
            <tr>
              <th scope="col">{s.time}</th>
              <th scope="col">{s.kind}</th>
              <th scope="col">{s.name}</th>
              <th scope="col" class="num">
                {s.ms}
              </th>
              <th scope="col">{s.ok}</th>
            </tr>
          </thead>
          {load.trace.map((step) => {
            const detail = detailText(step.detail);
            return (
              <tbody key={step.id} data-trace-kind={step.kind} class={step.ok ? "ok" : "failed"}>
                <tr>
                  <td>{time.format(step.at)}</td>
                  <td>
                    <span class="kind">{step.kind}</span>
                  </td>
                  <td class="name">{step.name ?? ""}</td>
                  <td class="num">{step.ms === undefined ? "" : count.format(Math.round(step.ms))}</td>
                  <td class="res" title={step.ok ? s.okYes : s.okNo}>
                    <span aria-hidden="true">{step.ok ? "✓" : "✗"}</span>
                    <span class="sr">{step.ok ? s.okYes : s.okNo}</span>
                  </td>
                </tr>
                {detail && (
                  <tr class="detail">
                    <td colSpan={5}>{detail}</td>
                  </tr>
                )}
              </tbody>
            );
          })}
        </table>
      )}
    </div>
  );
}
