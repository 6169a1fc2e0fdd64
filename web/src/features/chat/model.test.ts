import { describe, expect, it } from 'vitest';
import { formatMessageTime, formatRoomTime } from './model';

// Local times, so the day boundaries are the student's, whatever the machine's time zone.
const now = new Date(2026, 2, 14, 18, 30);
const iso = (y: number, m: number, d: number, h: number, min: number) =>
  new Date(y, m, d, h, min).toISOString();
const at = (locale: string) => ({ now: now.getTime(), locale });

describe('chat timestamps in the student locale', () => {
  it('reads "Today", "Yesterday", then the date, with the year only when it is not this year', () => {
    expect(formatMessageTime(iso(2026, 2, 14, 7, 8), at('en-US'))).toBe('Today 7:08 AM');
    expect(formatMessageTime(iso(2026, 2, 13, 21, 15), at('en-US'))).toBe('Yesterday 9:15 PM');
    expect(formatMessageTime(iso(2026, 2, 2, 7, 8), at('en-US'))).toBe('Mar 2, 7:08 AM');
    expect(formatMessageTime(iso(2025, 11, 24, 7, 8), at('en-US'))).toBe('Dec 24, 2025, 7:08 AM');
  });

  it('follows the locale (24-hour clock and words of another language)', () => {
    expect(formatMessageTime(iso(2026, 2, 14, 19, 8), at('de-DE'))).toBe('Heute 19:08');
    expect(formatMessageTime(iso(2026, 2, 13, 19, 8), at('fr-FR'))).toBe('Hier 19:08');
  });

  it('keeps the inbox short: the time today, "Yesterday", then the date', () => {
    expect(formatRoomTime(iso(2026, 2, 14, 7, 8), at('en-US'))).toBe('7:08 AM');
    expect(formatRoomTime(iso(2026, 2, 13, 7, 8), at('en-US'))).toBe('Yesterday');
    expect(formatRoomTime(iso(2026, 1, 28, 7, 8), at('en-US'))).toBe('Feb 28');
  });

  it('shows nothing for an unreadable date rather than "Invalid Date"', () => {
    expect(formatMessageTime('not a date', at('en-US'))).toBe('');
  });

  it('draws the times of a page rendered in another zone in that zone (its first render in the browser)', () => {
    const tokyo = { now: Date.parse('2026-03-14T16:00:00Z'), locale: 'en-US', timeZone: 'Asia/Tokyo' };
    // 01:00 on March 15 in Tokyo: 23:00 the day before is "Yesterday", 00:30 is "Today".
    expect(formatMessageTime('2026-03-14T14:00:00Z', tokyo)).toBe('Yesterday 11:00 PM');
    expect(formatMessageTime('2026-03-14T15:30:00Z', tokyo)).toBe('Today 12:30 AM');
    expect(formatRoomTime('2026-03-01T14:00:00Z', tokyo)).toBe('Mar 1');
    expect(formatRoomTime('2025-12-31T16:00:00Z', tokyo)).toBe('Jan 1');
  });
});
