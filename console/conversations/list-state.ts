import { signal } from "@preact/signals";

/** A message for the list when it shows next (e.g. "deleted"), said once. */
export const notice = signal("");

/** The list's address with the filters last applied, so "back" returns to the same view. */
let lastQuery = "";
export const rememberQuery = (query: string) => (lastQuery = query);
export const listAddress = () => `conversations${lastQuery ? `?${lastQuery}` : ""}`;
