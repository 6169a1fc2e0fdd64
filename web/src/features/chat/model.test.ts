import { describe, expect, it } from 'vitest';
import { formatMessageTime, formatRoomTime } from './model';

// Local times, so the day boundaries are the student's, whatever the machine's time zone.
const now = new Date(2026, 2, 14, 18, 30);
const iso = (y: number, m: number, d: number, h: number, min: number) =>
  new Date(y, m, d, h, min).toISOString();

describe('chat timestamps in the student locale (issue 14 item 18)', () => {
  it('reads "Today", "Yesterday", then the date, with the year only when it is not this year', () => {
    expect(formatMessageTime(iso(2026, 2, 14, 7, 8), now, 'en-US')).toBe('Today 7:08 AM');
    expect(formatMessageTime(iso(2026, 2, 13, 21, 15), now, 'en-US')).toBe('Yesterday 9:15 PM');
    expect(formatMessageTime(iso(2026, 2, 2, 7, 8), now, 'en-US')).toBe('Mar 2, 7:08 AM');
    expect(formatMessageTime(iso(2025, 11, 24, 7, 8), now, 'en-US')).toBe('Dec 24, 2025, 7:08 AM');
  });

  it('follows the locale (24-hour clock and words of another language)', () => {
    expect(formatMessageTime(iso(2026, 2, 14, 19, 8), now, 'de-DE')).toBe('Heute 19:08');
    expect(formatMessageTime(iso(2026, 2, 13, 19, 8), now, 'fr-FR')).toBe('Hier 19:08');
  });

  it('keeps the inbox short: the time today, "Yesterday", then the date', () => {
    expect(formatRoomTime(iso(2026, 2, 14, 7, 8), now, 'en-US')).toBe('7:08 AM');
    expect(formatRoomTime(iso(2026, 2, 13, 7, 8), now, 'en-US')).toBe('Yesterday');
    expect(formatRoomTime(iso(2026, 1, 28, 7, 8), now, 'en-US')).toBe('Feb 28');
  });

  it('shows nothing for an unreadable date rather than "Invalid Date"', () => {
    expect(formatMessageTime('not a date', now, 'en-US')).toBe('');
  });
});
