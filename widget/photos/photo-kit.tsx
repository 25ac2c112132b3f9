import type { Signal } from "@preact/signals";
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import type { ChatStore } from "../state/chat-store.ts";
import { isHttpError } from "../transport/errors.ts";
import { givePhotoConsent, readPhoto, uploadPhoto, type PhotoApi } from "../transport/photo-api.ts";
import { PanelStore } from "../ui/panel-store.ts";
import type { PendingPhoto } from "./pending.ts";
import { PhotoError, preparePhoto } from "./prepare-photo.ts";
import { photoStrings } from "./photo-strings.ts";
import { PhotoIcon, CameraIcon } from "./photo-icons.tsx";
import { addChunkCss } from "../ui/chunk-css.ts";
import CSS from "./photo-kit.css?inline";

addChunkCss(CSS);

/**
 * The photo kit, one lazy chunk: the composer's attach button (file picker; the camera
 * on phones), paste and drag-and-drop onto the composer, the consent line before the first photo,
 * previews to remove before sending, and thumbnails read with the session's token.
 */

/**
 * A photo as a data: URL: strict page policies that allow `img-src data:` (the demo's, the iframe
 * page's) refuse blob: URLs, and a photo has no public URL an <img> could load with the token.
 */
function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/** Photos shown in this page's panels, by id: shared by the composer's preview and the sent message. */
const urls = new Map<string, Promise<string>>();
function photoUrl(api: PhotoApi, id: string): Promise<string> {
  let url = urls.get(id);
  if (!url) {
    url = readPhoto(api, id).then(dataUrl);
    urls.set(id, url);
    url.catch(() => urls.delete(id));
  }
  return url;
}

const isImage = (f: File) => f.type.startsWith("image/") || f.type === "";
const touch = () => matchMedia("(pointer: coarse)").matches;

export function PhotoAttach({ store, photos }: { store: ChatStore; photos: Signal<PendingPhoto[]> }) {
  const config = store.agent.value!.photos!;
  const t = photoStrings(store.locale);
  const consent = store.locale.startsWith("zh") ? config.consent["zh-CN"] : config.consent.en;
  // Agreed in this conversation to the notice's current version: the worker recorded it (consent route).
  const agreed = () => store.state.value.consent?.photo?.version === config.consentVersion;
  const [asking, setAsking] = useState<File[] | "pick" | "camera" | null>(null);
  const [error, setError] = useState("");
  const picker = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);

  const update = (key: string, patch: Partial<PendingPhoto>) =>
    (photos.value = photos.value.map((p) => (p.key === key ? { ...p, ...patch } : p)));

  async function add(files: File[]) {
    setError("");
    const room = config.maxPerMessage - photos.value.length;
    if (files.length > room) setError(t.limit(config.maxPerMessage));
    for (const file of files.slice(0, Math.max(0, room))) {
      const key = Math.random().toString(36).slice(2);
      photos.value = [...photos.value, { key }];
      try {
        const prepared = await preparePhoto(file, config.longSide, config.maxBytes);
        // The upload starts at once; the preview is made while it travels.
        const uploaded = uploadPhoto(store.photoApi, prepared.blob);
        const url = dataUrl(prepared.blob);
        update(key, { url: await url });
        const id = await uploaded;
        urls.set(id, url);
        update(key, { id });
      } catch (e) {
        const text =
          e instanceof PhotoError
            ? e.reason === "unreadable"
              ? t.unreadable
              : t.tooLarge((config.maxBytes / 1048576).toFixed(1))
            : isHttpError(e) && e.status < 500 && e.status !== 429
              ? t.refused + e.message
              : t.failed;
        setError(text);
        photos.value = photos.value.filter((p) => p.key !== key);
      }
    }
  }

  /** Files from the picker, a paste or a drop: after the consent line, the first time. */
  function offer(files: File[]) {
    const images = files.filter(isImage);
    if (!images.length) return files.length ? setError(t.unreadable) : undefined;
    if (agreed()) void add(images);
    else setAsking(images);
  }
  const open = (which: "pick" | "camera") => {
    if (!agreed()) return setAsking(which);
    (which === "camera" ? camera : picker).current?.click();
  };

  // Paste and drop land on the composer as a whole (its text box included).
  useEffect(() => {
    const form = root.current?.closest("form");
    if (!form) return;
    const files = (list?: FileList | null) => [...(list ?? [])];
    const onPaste = (e: ClipboardEvent) => {
      const found = files(e.clipboardData?.files);
      if (found.length) {
        e.preventDefault();
        offer(found);
      }
    };
    const onDragOver = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
    };
    const onDrop = (e: DragEvent) => {
      const found = files(e.dataTransfer?.files);
      if (found.length) {
        e.preventDefault();
        offer(found);
      }
    };
    form.addEventListener("paste", onPaste);
    form.addEventListener("dragover", onDragOver);
    form.addEventListener("drop", onDrop);
    return () => {
      form.removeEventListener("paste", onPaste);
      form.removeEventListener("dragover", onDragOver);
      form.removeEventListener("drop", onDrop);
    };
  });

  const agree = async () => {
    const pending = asking;
    setError("");
    try {
      // The worker records the agreement before the first upload (which it refuses without one).
      store.privacy.session.apply(await givePhotoConsent(store.photoApi, config.consentVersion));
    } catch (e) {
      return setError(isHttpError(e) && e.status < 500 ? t.refused + e.message : t.failed);
    }
    setAsking(null);
    if (Array.isArray(pending)) void add(pending);
    else if (pending) (pending === "camera" ? camera : picker).current?.click();
  };
  const onFiles = (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    offer([...(input.files ?? [])]);
    input.value = "";
  };

  return (
    <div class="photo-kit" ref={root}>
      {asking && (
        <div class="photo-consent" role="group" aria-label={t.attach}>
          <p>{consent}</p>
          <button type="button" class="send small" onClick={agree}>
            {t.agree}
          </button>
          <button type="button" class="photo-cancel" onClick={() => setAsking(null)}>
            {t.cancel}
          </button>
        </div>
      )}
      {error && (
        <p class="photo-error" role="alert">
          {error}
        </p>
      )}
      {photos.value.length > 0 && (
        <ul class="photo-strip" aria-label={t.preview}>
          {photos.value.map((p) => (
            <li key={p.key} aria-busy={!p.id}>
              {p.url ? <img src={p.url} alt={t.preview} /> : <span class="photo-wait">{t.preparing}</span>}
              <button
                type="button"
                class="photo-remove"
                aria-label={t.remove}
                title={t.remove}
                onClick={() => (photos.value = photos.value.filter((x) => x.key !== p.key))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="attach" aria-label={t.attach} title={t.attach} onClick={() => open("pick")}>
        <PhotoIcon />
      </button>
      {touch() && (
        <button type="button" class="attach" aria-label={t.camera} title={t.camera} onClick={() => open("camera")}>
          <CameraIcon />
        </button>
      )}
      <input ref={picker} type="file" accept="image/*" multiple hidden onChange={onFiles} />
      <input ref={camera} type="file" accept="image/*" capture="environment" hidden onChange={onFiles} />
    </div>
  );
}

/** Thumbnails of stored photos (a visitor's message, an advice card's evidence), loaded with the token. */
export function PhotoThumbs({ ids }: { ids: string[] }) {
  const store = useContext(PanelStore);
  const [shown, setShown] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!store) return;
    let live = true;
    for (const id of ids)
      photoUrl(store.photoApi, id).then(
        (url) => live && setShown((s) => ({ ...s, [id]: url })),
        () => {},
      );
    return () => void (live = false);
  }, [ids.join()]);
  const t = photoStrings(store?.locale ?? "en");
  return (
    <div class="thumbs">
      {ids.map((id) =>
        shown[id] ? <img key={id} src={shown[id]} alt={t.sent} data-photo-id={id} /> : <span key={id} class="thumb" />,
      )}
    </div>
  );
}
