import { signal } from "@preact/signals";

const STORE = "parley-staff-name";

/** The name visitors see when this staff member joins ("Mei"): kept in this browser, nothing secret. */
export const staffName = signal(localStorage.getItem(STORE) ?? "");

export function setStaffName(name: string): void {
  staffName.value = name;
  localStorage.setItem(STORE, name);
}
