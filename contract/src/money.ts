/**
 * Money, written once. The database and the server's arithmetic hold integer cents (no float
 * drift, the same on both dialects); API answers and what a student types are dollars with at
 * most 2 decimals; the text a student reads is en-US currency ("$24", "$12.50", "$1,200").
 */

/** The largest price a listing, a wanted post's budget, a price filter or an offer may name. */
export const PRICE_LIMITS = {
  maxDollars: 100_000,
  maxCents: 100_000 * 100,
} as const;

/**
 * Parses a price the way a person types it ("12", "12.5", "12.50") into integer cents.
 * Returns null when it is not a plain non-negative number with at most 2 decimals.
 */
export function dollarsToCents(input: string | number): number | null {
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  const [whole, frac = ''] = text.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** Stored cents as the dollars an API answer carries. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** Dollars from an API answer (cents / 100, so possibly 12.049999…) back to whole cents. */
export function dollarsAsCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** Why a typed price was refused; each form or route says it in its own words. */
export type PriceProblem = 'missing' | 'invalid' | 'zero' | 'tooHigh';

/**
 * Reads a typed price: empty is missing, anything but plain dollars with at most 2 decimals is
 * invalid, then 0 and amounts over the limit are told apart (spec §5: a price of 0 counts as
 * missing on a listing, while a price filter accepts it).
 */
export function readPrice(
  input: string | number,
): { ok: true; cents: number } | { ok: false; problem: PriceProblem } {
  if (typeof input === 'number' && !Number.isFinite(input)) return { ok: false, problem: 'invalid' };
  if (typeof input === 'string' && input.trim() === '') return { ok: false, problem: 'missing' };
  const cents = dollarsToCents(input);
  if (cents === null) return { ok: false, problem: 'invalid' };
  if (cents === 0) return { ok: false, problem: 'zero' };
  if (cents > PRICE_LIMITS.maxCents) return { ok: false, problem: 'tooHigh' };
  return { ok: true, cents };
}

/** "1,234" for a whole non-negative number. */
function grouped(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Cents as en-US currency: "$24", "$12.50", "$1,200" — two decimals only when there are cents.
 * Written out rather than built on `Intl.NumberFormat`: the first Intl object a page builds makes
 * the browser load its locale data (≈ 100–150 ms of blocked main thread on a mid-range phone), and
 * prices are on every card of the first screen. money.test.ts checks the output against Intl's.
 */
export function formatCents(cents: number): string {
  if (!Number.isFinite(cents)) return '$—';
  // Prices are never negative (the contract refuses them).
  const whole = Math.max(0, Math.round(cents));
  const rest = whole % 100;
  return `$${grouped(Math.floor(whole / 100))}${rest === 0 ? '' : `.${String(rest).padStart(2, '0')}`}`;
}

/** Dollars (as API answers carry them) as en-US currency; see formatCents. */
export function formatDollars(dollars: number): string {
  return formatCents(dollarsAsCents(dollars));
}
