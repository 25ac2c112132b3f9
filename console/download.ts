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
