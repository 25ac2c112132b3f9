/**
 * Exact decimal money arithmetic on BigInt: amounts are integers of 10^-6 units, so "0.1 + 0.2" is
 * 0.3 and a 12.5 % discount on 19.99 is exact until the one rounding to cents at the end. Floats
 * would drift (0.1 + 0.2 = 0.30000000000000004) and a quote must add up to the cent.
 */
const SCALE = 6;
const ONE = 10n ** BigInt(SCALE);

export type Micro = bigint;

/** "19.99", "-3", "1200.5" into micro-units; anything else throws, naming the value. */
export function parseDecimal(text: string): Micro {
  const m = /^(-?)(\d{1,15})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m)
    throw new RangeError(`Not a decimal amount: ${JSON.stringify(text)} (digits, optional "." and up to 6 decimals)`);
  const value = BigInt(m[2]) * ONE + BigInt((m[3] ?? "").padEnd(SCALE, "0"));
  return m[1] ? -value : value;
}

export const fromInt = (n: number): Micro => BigInt(n) * ONE;

/** a × b, both in micro-units, rounded half away from zero back to micro-units. */
export function mul(a: Micro, b: Micro): Micro {
  return divRound(a * b, ONE);
}

/** a ÷ b, rounded half away from zero, in micro-units. */
export function div(a: Micro, b: Micro): Micro {
  if (b === 0n) throw new RangeError("Division by zero");
  return divRound(a * ONE, b);
}

function divRound(n: bigint, d: bigint): bigint {
  const neg = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (an * 2n + ad) / (ad * 2n);
  return neg ? -q : q;
}

/** Rounded to `digits` decimals (half away from zero) and written out: toFixed for money, exactly. */
export function format(value: Micro, digits = 2): string {
  const unit = 10n ** BigInt(SCALE - digits);
  const rounded = divRound(value, unit);
  const neg = rounded < 0n;
  const abs = neg ? -rounded : rounded;
  const s = abs.toString().padStart(digits + 1, "0");
  const whole = digits ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s;
  return neg && rounded !== 0n ? `-${whole}` : whole;
}

/** Rounded to cents, still in micro-units: what a line of a quote carries. */
export const toCents = (value: Micro): Micro => divRound(value, 10n ** BigInt(SCALE - 2)) * 10n ** BigInt(SCALE - 2);
