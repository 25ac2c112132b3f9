import { createContext } from "preact";
import type { ChatStore } from "../state/chat-store.ts";
import { lazyComponent } from "./lazy.tsx";

/**
 * Where photos show up in the panel. Their code (re-encoding, upload, thumbnails loaded with the
 * session's token) is one lazy chunk, the photo kit: only agents that take photos, and visitors who
 * see a photo, pay for it. The panel's store reaches thumbnails deep in the list through context.
 */
export const PanelStore = createContext<ChatStore | null>(null);

const kit = () => import("../photos/photo-kit.tsx");
export const LazyPhotoAttach = lazyComponent(() => kit().then((m) => m.PhotoAttach));
export const LazyPhotoThumbs = lazyComponent(() => kit().then((m) => m.PhotoThumbs));
