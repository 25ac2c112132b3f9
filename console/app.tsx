import { useEffect } from "preact/hooks";
import { useSignal } from "@preact/signals";
import { restoreSession, session, signInWithLink } from "./api.ts";
import { Layout } from "./layout.tsx";
import { SignIn } from "./sign-in.tsx";

/** The token of a one-time sign-in link (`/console#sign-in=<token>`), taken out of the address at once. */
function takeSignInLink(): string | null {
  const token = /^#sign-in=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1] ?? null;
  if (token) history.replaceState(history.state, "", location.pathname + location.search);
  return token;
}

/**
 * Signs in with a one-time link when the address carries one; otherwise asks the worker once whether a
 * session is open (the cookie is unreadable here). Then the sign-in form or the console.
 */
export function App() {
  const ready = useSignal(false);
  const linkFailed = useSignal(false);
  useEffect(() => {
    const link = takeSignInLink();
    const start = link
      ? signInWithLink(link).catch(() => {
          linkFailed.value = true;
          return restoreSession();
        })
      : restoreSession();
    start.finally(() => (ready.value = true));
  }, []);
  if (!ready.value) return null;
  return session.value ? <Layout /> : <SignIn linkFailed={linkFailed.value} />;
}
