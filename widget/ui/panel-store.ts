import { createContext } from "preact";
import type { ChatStore } from "../state/chat-store.ts";

/** The panel's store, for what sits deep in the list and needs it (thumbnails loaded with the session's token). */
export const PanelStore = createContext<ChatStore | null>(null);
