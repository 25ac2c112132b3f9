import { render } from "preact";
import { effect } from "@preact/signals";
import { ApiFailure, onFreshSignIn, session } from "./api.ts";
import { App } from "./app.tsx";
import { locale } from "./i18n.ts";
import "./console.css";

// A step that asks an account to sign in afresh asks for its passkey or single sign-on (loaded on first use).
onFreshSignIn(async (siteKey) => (await import("./reauth.ts")).reauthenticate(siteKey));
// A page's request that meets an ended session (signed out in this or another tab, expired, removed)
// has nothing left to report: the sign-in form has replaced the page (api.ts clears the session).
addEventListener("unhandledrejection", (e) => {
  if (e.reason instanceof ApiFailure && e.reason.status === 401 && !session.value) e.preventDefault();
});
// The page's language follows the owner's choice, for screen readers and fonts.
effect(() => void (document.documentElement.lang = locale.value));
render(<App />, document.getElementById("console")!);
