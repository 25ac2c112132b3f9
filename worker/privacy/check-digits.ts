/**
 * The check digits and structure rules that tell a real identity number from a look-alike (an
 * order number, a tracking code): a number that fails them is left as it is.
 */

const CN_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CN_CHECK = "10X98765432";

export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1];
}

/**
 * China's 18-character resident identity number (GB 11643-1999): a region code (first digit 1-8),
 * the holder's birth date, a sequence number and an ISO 7064 MOD 11-2 check character (0-9 or X).
 */
export function isCnResidentId(id: string): boolean {
  if (!/^[1-8]\d{16}[\dX]$/i.test(id)) return false;
  const [y, m, d] = [Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14))];
  if (y < 1900 || y > new Date().getUTCFullYear() || !isCalendarDate(y, m, d)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(id[i]) * CN_WEIGHTS[i];
  return CN_CHECK[sum % 11] === id[17].toUpperCase();
}

/** A UK NHS number: ten digits, the last a modulus 11 check of the first nine (weights 10 to 2). */
export function isNhsNumber(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(digits[i]) * (10 - i);
  const check = 11 - (sum % 11);
  if (check === 10) return false;
  return (check === 11 ? 0 : check) === Number(digits[9]);
}

/** A US social security number's parts as issued: area not 000, 666 or 900-999, group not 00, serial not 0000. */
export function isSsn(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  return a !== 0 && a !== 666 && a < 900 && group !== "00" && serial !== "0000";
}
