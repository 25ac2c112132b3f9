import { useEffect } from "preact/hooks";
import { useSignal } from "@preact/signals";
import { restoreSession, session } from "./api.ts";
import { Layout } from "./layout.tsx";
import { SignIn } from "./sign-in.tsx";

/**
 * Asks the worker once whether a session is open (the cookie is unreadable here), then signs in or shows the
 * console.
 */
export function App() {
  const ready = useSignal(false);
  useEffect(() => {
    restoreSession().finally(() => (ready.value = true));
  }, []);
  if (!ready.value) return null;
  return session.value ? <Layout /> : <SignIn />;
}
