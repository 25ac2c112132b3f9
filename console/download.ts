import { ApiFailure, session } from "./api.ts";

/**
 * Downloads a file the worker makes (an export) with the session's cookie, as a link would, but
 * asking an account for its passkey first when the worker wants a fresh sign-in (exports do).
 */
export async function downloadFile(path: string, name: string): Promise<void> {
  let res = await fetch(path, { credentials: "same-origin" });
  if (res.status === 403 && session.value?.who.kind === "account") {
    const body = await res
      .clone()
      .json()
      .catch(() => null);
    if (body?.error?.code === "reauth_required") {
      const { passkeySignIn } = await import("./passkeys.ts");
      await passkeySignIn(session.value.site);
      res = await fetch(path, { credentials: "same-origin" });
    }
  }
  if (!res.ok) {
    const err = (await res.json().catch(() => null))?.error ?? {};
    throw new ApiFailure(res.status, err.code ?? "internal", err.message ?? res.statusText);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * For an export link: an account's click goes through downloadFile (a passkey first if the sign-in is
 * over 10 minutes old); a session of the admin key follows the link (it signs in again with the key).
 */
export function onExportClick(e: MouseEvent, path: string, name: string, onError: (message: string) => void): void {
  if (session.value?.who.kind !== "account") return;
  e.preventDefault();
  downloadFile(path, name).catch((err) => onError(err instanceof Error ? err.message : String(err)));
}
