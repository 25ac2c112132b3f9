import { findAddresses } from "./detect-addresses.ts";
import { findBirthDates } from "./detect-birth-dates.ts";
import { findEmails } from "./detect-email.ts";
import { findIdNumbers } from "./detect-ids.ts";
import { findPhones } from "./detect-phones.ts";
import type { PiiMatch, PiiType } from "./pii-types.ts";

/**
 * Where two kinds claim the same characters, the more specific wins: a checked identity number over a
 * phone shape (an NHS number is written 3 3 4, as North American phones are), an e-mail over anything
 * inside it, a birth date (found only beside birth words) over the phone or address shapes.
 */
const RANK: Record<PiiType, number> = { "id-number": 0, email: 1, "birth-date": 2, phone: 3, address: 4 };

/** The personal details in `text`, in order, none overlapping. */
export function findPii(text: string): PiiMatch[] {
  const all = [
    ...findIdNumbers(text),
    ...findEmails(text),
    ...findBirthDates(text),
    ...findPhones(text),
    ...findAddresses(text),
  ].sort((a, b) => RANK[a.type] - RANK[b.type] || b.end - b.start - (a.end - a.start));
  const kept: PiiMatch[] = [];
  for (const m of all) if (!kept.some((k) => m.start < k.end && k.start < m.end)) kept.push(m);
  return kept.sort((a, b) => a.start - b.start);
}
