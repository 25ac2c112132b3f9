import { lazyComponent } from "./lazy.tsx";

/**
 * Where photos show up in the panel. Their code (re-encoding, upload, thumbnails loaded with the
 * session's token) is one lazy chunk, the photo kit: only agents that take photos, and visitors who
 * see a photo, pay for it. The panel's store reaches thumbnails deep in the list through context
 * (panel-store.ts, which the kit imports without importing this file back).
 */
const kit = () => import("../photos/photo-kit.tsx");
export const LazyPhotoAttach = lazyComponent(() => kit().then((m) => m.PhotoAttach));
export const LazyPhotoThumbs = lazyComponent(() => kit().then((m) => m.PhotoThumbs));
