/** A photo in the composer: re-encoding, uploading, ready (its id in the session), or refused. */
export interface PendingPhoto {
  key: string;
  /** The re-encoded photo as a data: URL, for the preview. */
  url?: string;
  id?: string;
  error?: string;
}
