import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { ConsentNotice } from "../../shared/session/consent.ts";
import { localize } from "../../shared/config/localize.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { addChunkCss } from "../ui/chunk-css.ts";
import { agreeTo, decline, download, erase } from "./privacy-actions.ts";
import { privacyStrings } from "./privacy-strings.ts";
import CSS from "./privacy.css?inline";

addChunkCss(CSS);

/**
 * The visitor's consent and their own data, one lazy chunk: the notice the panel shows before the
 * composer works (agents that ask consent), and the panel to download or delete the conversation.
 * Native buttons and links only, focus moved to each view's heading: usable by keyboard and read in
 * order by a screen reader; colours from the panel's theme variables, so both themes apply.
 */

/** The consent notice while one is asked (it comes first), else the visitor's data panel. */
export function PrivacyView(p: { store: ChatStore; notice: ConsentNotice | null; onView: (v: "chat") => void }) {
  return p.notice ? (
    <ConsentCard store={p.store} notice={p.notice} />
  ) : (
    <RightsPanel store={p.store} done={() => p.onView("chat")} />
  );
}

/**
 * Moves focus to the heading when the view (or its state) changes: a screen reader starts there. As the
 * view draws, not after the next frame: a visitor already tabbing on is not thrown back to the heading.
 */
function useFocus(dep: unknown) {
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => heading.current?.focus(), [dep]);
  return heading;
}

export function ConsentCard({ store, notice }: { store: ChatStore; notice: ConsentNotice }) {
  const t = privacyStrings(store.locale);
  const [declined, setDeclined] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const heading = useFocus(declined);
  async function agree() {
    setBusy(true);
    setError("");
    try {
      await agreeTo(store, notice);
    } catch {
      setError(t.failed);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div
      class="list privacy"
      role="region"
      aria-labelledby="parley-consent-title"
      data-consent={declined ? "declined" : notice.version}
    >
      <h2 id="parley-consent-title" ref={heading} tabIndex={-1}>
        {declined ? t.declinedTitle : t.consentTitle}
      </h2>
      {declined ? (
        <>
          <p role="status">{t.declined}</p>
          <div class="actions">
            <button type="button" class="chip" onClick={() => setDeclined(false)}>
              {t.review}
            </button>
          </div>
        </>
      ) : (
        <>
          <p class="notice">{localize(notice.text, store.locale)}</p>
          {notice.privacyUrl && (
            <p>
              <a href={notice.privacyUrl} target="_blank" rel="noopener noreferrer">
                {t.privacyLink}
              </a>
            </p>
          )}
          {error && <p role="alert">{error}</p>}
          <div class="actions">
            <button type="button" class="send small" data-action="agree" disabled={busy} onClick={agree}>
              {t.agree}
            </button>
            <button
              type="button"
              class="chip"
              data-action="decline"
              onClick={() => {
                decline(store);
                setDeclined(true);
              }}
            >
              {t.decline}
            </button>
          </div>
        </>
      )}
    </div>
  );
}

/** "Your data": download the conversation (a readable file, or JSON), or delete it after a confirmation. */
export function RightsPanel({ store, done }: { store: ChatStore; done: () => void }) {
  const t = privacyStrings(store.locale);
  const [confirming, setConfirming] = useState(false);
  const [said, setSaid] = useState("");
  const [error, setError] = useState("");
  const heading = useFocus(null);
  const yes = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // Focus follows the question: to its confirm button, and back to the button that asked when it goes.
  useLayoutEffect(() => {
    if (confirming) yes.current?.focus();
    else if (asked.current) ask.current?.focus();
    asked.current ||= confirming;
  }, [confirming]);
  const attempt = (work: () => Promise<void>, ok: string) => () => {
    setError("");
    work().then(
      () => setSaid(ok),
      () => setError(t.failed),
    );
  };
  const notice = store.agent.value?.consent;
  return (
    <div class="list privacy" role="region" aria-labelledby="parley-rights-title">
      <h2 id="parley-rights-title" ref={heading} tabIndex={-1}>
        {t.rightsTitle}
      </h2>
      <p>{t.rightsIntro}</p>
      <div class="actions">
        <button
          type="button"
          class="chip"
          data-action="download-html"
          onClick={attempt(() => download(store, "html"), t.downloaded)}
        >
          {t.downloadHtml}
        </button>
        <button
          type="button"
          class="chip"
          data-action="download-json"
          onClick={attempt(() => download(store, "json"), t.downloaded)}
        >
          {t.downloadJson}
        </button>
      </div>
      {notice?.privacyUrl && (
        <p>
          <a href={notice.privacyUrl} target="_blank" rel="noopener noreferrer">
            {t.privacyLink}
          </a>
        </p>
      )}
      {confirming ? (
        <div class="actions" role="group" aria-labelledby="parley-erase-question">
          <p id="parley-erase-question">{t.confirm}</p>
          <button
            ref={yes}
            type="button"
            class="chip danger"
            data-action="erase-confirm"
            onClick={() =>
              erase(store).then(
                () => {
                  done();
                  store.notice.value = store.announcement.value = t.erased;
                },
                () => setError(t.failed),
              )
            }
          >
            {t.eraseYes}
          </button>
          <button type="button" class="chip" onClick={() => setConfirming(false)}>
            {t.keep}
          </button>
        </div>
      ) : (
        <div class="actions">
          <button ref={ask} type="button" class="chip danger" data-action="erase" onClick={() => setConfirming(true)}>
            {t.erase}
          </button>
        </div>
      )}
      {said && <p role="status">{said}</p>}
      {error && <p role="alert">{error}</p>}
    </div>
  );
}
