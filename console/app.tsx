import { useEffect } from "preact/hooks";
import { useSignal } from "@preact/signals";
import { restoreSession, session, signInWithLink } from "./api.ts";
import { Invite } from "./invite.tsx";
import { Layout } from "./layout.tsx";
import { route } from "./router.ts";
import { SignIn } from "./sign-in.tsx";
import { finishSso, siteOfState } from "./sso.ts";

/** The token of a one-time sign-in link (`/console#sign-in=<token>`), taken out of the address at once. */
function takeSignInLink(): string | null {
  const token = /^#sign-in=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1] ?? null;
  if (token) history.replaceState(history.state, "", location.pathname + location.search);
  return token;
}

/**
 * Signs in with a one-time link when the address carries one, or finishes a single sign-on on its
 * callback page; otherwise asks the worker once whether a session is open (the cookie is unreadable
 * here). Then the sign-in form or the console; an invitation link shows the invitation.
 */
export function App() {
  const ready = useSignal(false);
  const linkFailed = useSignal(false);
  const sso = useSignal({ error: "", site: "" });
  useEffect(() => {
    const link = takeSignInLink();
    const state = new URLSearchParams(location.search).get("state") ?? "";
    const start =
      route.value === "sso/callback"
        ? finishSso().catch(async (err) => {
            const { ssoErrorText } = await import("./sso-messages.ts");
            sso.value = { error: ssoErrorText(err), site: siteOfState(state) };
          })
        : link
          ? signInWithLink(link).catch(() => {
              linkFailed.value = true;
              return restoreSession();
            })
          : restoreSession();
    start.finally(() => (ready.value = true));
  }, []);
  if (!ready.value) return null;
  // An invitation link opens its own page, signed in or not (it signs in as the new account).
  if (route.value === "invite") return <Invite />;
  return session.value ? (
    <Layout />
  ) : (
    <SignIn linkFailed={linkFailed.value} ssoError={sso.value.error} site={sso.value.site} />
  );
}
