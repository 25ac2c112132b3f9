import type { MountOptions, WidgetHandle, WidgetTheme } from "../state/events.ts";
import { mount } from "./mount.ts";

export interface ParleyChatElement extends HTMLElement {
  /** The mounted widget (open/close/send/on/...), once the element is in the document. */
  readonly widget: WidgetHandle | null;
}

/**
 * Defines `<parley-chat site-key="..." agent="..." [api] [locale] [theme] [identity] [nonce] [open]>`.
 * The script-tag loader uses the same tag as its host element; such an element carries no
 * `site-key` attribute and is left to the loader, so both can live on one page. The class is made
 * here, not at import, so importing the package on a server (no HTMLElement) is harmless.
 */
export function defineParleyElement(name = "parley-chat"): void {
  if (customElements.get(name)) return;
  class Element extends HTMLElement implements ParleyChatElement {
    static observedAttributes = ["theme", "identity"];
    #handle: WidgetHandle | null = null;
    get widget() {
      return this.#handle;
    }
    connectedCallback() {
      if (this.#handle || !this.hasAttribute("site-key")) return;
      const attr = (n: string) => this.getAttribute(n) ?? undefined;
      const options: MountOptions = {
        siteKey: attr("site-key")!,
        agentId: attr("agent") ?? "",
        api: attr("api"),
        locale: attr("locale"),
        theme: attr("theme") as WidgetTheme | undefined,
        identity: attr("identity"),
        open: this.hasAttribute("open"),
        debug: this.hasAttribute("debug") && attr("debug") !== "false",
        // Browsers hide a connected element's nonce attribute from the page; the property keeps it.
        nonce: this.nonce || attr("nonce"),
      };
      this.#handle = mount(this, options);
    }
    disconnectedCallback() {
      this.#handle?.destroy();
      this.#handle = null;
    }
    attributeChangedCallback(name: string, _old: string | null, value: string | null) {
      if (name === "theme") this.#handle?.setTheme((value as WidgetTheme | null) ?? "auto");
      else this.#handle?.setIdentity(value ?? undefined);
    }
  }
  customElements.define(name, Element);
}
