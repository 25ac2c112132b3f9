import { render } from "preact";
import { effect } from "@preact/signals";
import { App } from "./app.tsx";
import { locale } from "./i18n.ts";
import "./console.css";

// The page's language follows the owner's choice, for screen readers and fonts.
effect(() => void (document.documentElement.lang = locale.value));
render(<App />, document.getElementById("console")!);
