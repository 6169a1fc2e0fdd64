import { NOTIFICATION_LIMITS, wallTime, zoneOffsetMs } from '@campus/contract';

/** The instant when the wall clock of the zone shows that date and hour (DST-safe). */
function instantOf(year: number, month: number, day: number, hour: number, timeZone: string): number {
  const naive = Date.UTC(year, month - 1, day, hour);
  let guess = naive - zoneOffsetMs(naive, timeZone);
  // Once more at the guess: the offset may differ across a DST change between naive and guess.
  guess = naive - zoneOffsetMs(guess, timeZone);
  return guess;
}

export function isQuietTime(epochMs: number, timeZone: string): boolean {
  const { hour } = wallTime(epochMs, timeZone);
  return hour >= NOTIFICATION_LIMITS.quietStartHour || hour < NOTIFICATION_LIMITS.quietEndHour;
}

/**
 * When a notification e-mail or push created at `epochMs` may go out: at once by day, at 07:00
 * campus time when it is night there (22:00–07:00, features.md §D).
 */
export function deliveryTime(epochMs: number, timeZone: string): number {
  if (!isQuietTime(epochMs, timeZone)) return epochMs;
  const w = wallTime(epochMs, timeZone);
  let { year, month, day } = w;
  if (w.hour >= NOTIFICATION_LIMITS.quietStartHour) {
    // Tomorrow's date: noon today in UTC terms plus a day avoids any DST edge.
    const next = new Date(Date.UTC(year, month - 1, day, 12) + 86_400_000);
    year = next.getUTCFullYear();
    month = next.getUTCMonth() + 1;
    day = next.getUTCDate();
  }
  return instantOf(year, month, day, NOTIFICATION_LIMITS.quietEndHour, timeZone);
}
