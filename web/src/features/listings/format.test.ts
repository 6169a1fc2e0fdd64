import { describe, expect, it } from 'vitest';
import { listedAgo } from './format';

/** What the app showed when these came from Intl (en-US): the hand-written formats must match. */
const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

function intlAgo(iso: string, now: number): string {
  const time = Date.parse(iso);
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3600) return RELATIVE.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return RELATIVE.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return RELATIVE.format(Math.round(seconds / 86_400), 'day');
  return DATE.format(time);
}

describe('listing formats (the same text Intl en-US gave)', () => {
  it('listed ago: every step from just now to a date, past and future', () => {
    const now = Date.parse('2026-11-24T15:30:00Z');
    const offsets: number[] = [];
    for (let s = -10 * 86_400; s <= 10 * 86_400; s += 517) offsets.push(s);
    offsets.push(
      -59,
      -60,
      -61,
      -89,
      -90,
      -3599,
      -3600,
      -5400,
      -86_399,
      -86_400,
      -129_600,
      -604_799,
      -604_800,
    );
    for (const offset of offsets) {
      const iso = new Date(now + offset * 1000).toISOString();
      expect(listedAgo(iso, { now }), `${offset} s`).toBe(intlAgo(iso, now));
    }
    expect(listedAgo('not a date', { now })).toBe('');
  });

  it('listed ago: the date in the zone the basis names (a page rendered elsewhere, taken over here)', () => {
    const now = Date.parse('2026-11-24T15:30:00Z');
    // 23:00 UTC on Nov 10 is already Nov 11 in Tokyo.
    expect(listedAgo('2026-11-10T23:00:00Z', { now, timeZone: 'Asia/Tokyo' })).toBe('Nov 11, 2026');
    expect(listedAgo('2026-11-10T23:00:00Z', { now, timeZone: 'UTC' })).toBe('Nov 10, 2026');
  });
});
