/**
 * Copies text for the visitor. The async Clipboard API needs a secure context and, in an iframe,
 * the clipboard-write permission; where it is missing or refused, a selected off-screen textarea
 * and execCommand("copy") still work in every browser we target.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.style.cssText = "position:fixed;top:0;left:0;opacity:0";
    document.body.append(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      /* refused: nothing copied */
    }
    ta.remove();
    return ok;
  }
}
