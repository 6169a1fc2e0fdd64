import { describe, expect, it } from 'vitest';
import {
  centsToDollars,
  dollarsAsCents,
  dollarsToCents,
  formatCents,
  formatDollars,
  PRICE_LIMITS,
  readPrice,
} from './money.js';

/** What the app showed when prices came from Intl (en-US): the hand-written format must match. */
const WHOLE = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const CENTS = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

function intlPrice(price: number): string {
  const cents = Math.round(price * 100);
  return cents % 100 === 0 ? WHOLE.format(cents / 100) : CENTS.format(cents / 100);
}

describe('money as a student reads it', () => {
  it('prices: whole, cents, thousands, the largest listing price (the same text Intl en-US gave)', () => {
    const prices = [0, 0.5, 1, 5, 12.5, 12.05, 24, 999.99, 1000, 1200, 12_345.6, 100_000, 99_999.99];
    for (let p = 0; p < 3000; p += 7.13) prices.push(Math.round(p * 100) / 100);
    for (const price of prices) expect(formatDollars(price), String(price)).toBe(intlPrice(price));
    expect(formatDollars(Number.NaN)).toBe('$—');
  });

  it('shows cents only when there are some', () => {
    expect(formatDollars(24)).toBe('$24');
    expect(formatDollars(12.5)).toBe('$12.50');
    expect(formatDollars(45.5)).toBe('$45.50');
    expect(formatDollars(1200)).toBe('$1,200');
    expect(formatDollars(0.1 + 0.2)).toBe('$0.30');
  });

  it('formats stored cents the same way as the dollars an answer carries', () => {
    for (const cents of [0, 1, 50, 999, 1250, 120_000, 1_234_567, PRICE_LIMITS.maxCents]) {
      expect(formatCents(cents)).toBe(formatDollars(centsToDollars(cents)));
      expect(dollarsAsCents(centsToDollars(cents))).toBe(cents);
    }
    expect(formatCents(123_456_789)).toBe('$1,234,567.89');
  });
});

describe('a typed price', () => {
  it('reads plain dollars with at most 2 decimals as cents', () => {
    expect(dollarsToCents('12')).toBe(1200);
    expect(dollarsToCents(' 12.5 ')).toBe(1250);
    expect(dollarsToCents('12.05')).toBe(1205);
    expect(dollarsToCents(39.5)).toBe(3950);
    for (const bad of ['', '-1', '1.234', '1e3', '.5', '12,50', '$12', 'abc']) {
      expect(dollarsToCents(bad), bad).toBeNull();
    }
  });

  it('tells missing, invalid, zero and too high apart', () => {
    expect(readPrice('')).toEqual({ ok: false, problem: 'missing' });
    expect(readPrice('  ')).toEqual({ ok: false, problem: 'missing' });
    expect(readPrice('1.234')).toEqual({ ok: false, problem: 'invalid' });
    expect(readPrice(Number.POSITIVE_INFINITY)).toEqual({ ok: false, problem: 'invalid' });
    expect(readPrice('0.00')).toEqual({ ok: false, problem: 'zero' });
    expect(readPrice('100000.01')).toEqual({ ok: false, problem: 'tooHigh' });
    expect(readPrice('100000')).toEqual({ ok: true, cents: PRICE_LIMITS.maxCents });
    expect(readPrice(0.01)).toEqual({ ok: true, cents: 1 });
  });
});
