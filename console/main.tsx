import { render } from "preact";
import { effect } from "@preact/signals";
import { onFreshSignIn } from "./api.ts";
import { App } from "./app.tsx";
import { locale } from "./i18n.ts";
import "./console.css";

// A step that asks an account to sign in afresh asks for its passkey or single sign-on (loaded on first use).
onFreshSignIn(async (siteKey) => (await import("./reauth.ts")).reauthenticate(siteKey));
// The page's language follows the owner's choice, for screen readers and fonts.
effect(() => void (document.documentElement.lang = locale.value));
render(<App />, document.getElementById("console")!);
