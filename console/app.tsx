import { useEffect } from "preact/hooks";
import { useSignal } from "@preact/signals";
import { restoreSession, session } from "./api.ts";
import { Invite } from "./invite.tsx";
import { Layout } from "./layout.tsx";
import { route } from "./router.ts";
import { SignIn } from "./sign-in.tsx";

/**
 * Asks the worker once whether a session is open (the cookie is unreadable here), then signs in or shows the
 * console; an invitation link shows the invitation.
 */
export function App() {
  const ready = useSignal(false);
  useEffect(() => {
    restoreSession().finally(() => (ready.value = true));
  }, []);
  if (!ready.value) return null;
  // An invitation link opens its own page, signed in or not (it signs in as the new account).
  if (route.value === "invite") return <Invite />;
  return session.value ? <Layout /> : <SignIn />;
}
