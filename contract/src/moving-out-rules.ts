/**
 * What pages read of the move-out season (limits, messages, days) without building a schema, so a
 * first render never loads Zod (the schemas are in moving-out.ts).
 */
import { wallTime, zoneOffsetMs } from './time-zone.js';

/**
 * The move-out season (features.md §H): "Hold for fall" on offers, and a student's move-out plan
 * (a date their listings must go by, automatic price steps, and what happens at the date).
 * Dates are calendar days (YYYY-MM-DD) read in the campus's time zone: a date "begins" at 00:00
 * there, and every timer counts from that instant.
 */

const DAY_MS = 24 * 3_600_000;

export const MOVE_OUT_LIMITS = {
  /** A move-out date or a hold date is at most this many days ahead. */
  maxDaysAhead: 120,
  /** The automatic price steps: percent off the original price, and days before the date. */
  steps: [
    { daysBefore: 7, percentOff: 20 },
    { daysBefore: 2, percentOff: 40 },
  ],
  floorPercentMin: 1,
  floorPercentMax: 100,
  /** A plan without floorPercent never goes below half the original price. */
  floorPercentDefault: 50,
} as const;

export const HOLD_LIMITS = {
  maxDaysAhead: MOVE_OUT_LIMITS.maxDaysAhead,
  /** A held reservation lasts until this long after the hold date (instead of 72 h). */
  reservationAfterHoldHours: 48,
  /** Both students are reminded this many days before the hold date. */
  reminderDaysBefore: [7, 1],
  /** Meet-ups about a held item can be proposed from this many days before the hold date. */
  meetupsFromDaysBefore: 7,
} as const;

export const HOLD_DURATIONS_MS = {
  reservationAfterHold: HOLD_LIMITS.reservationAfterHoldHours * 3_600_000,
  meetupsFrom: HOLD_LIMITS.meetupsFromDaysBefore * DAY_MS,
} as const;

/** "Aug 25": how every screen and message names a calendar day. */
export function formatDay(day: string): string {
  const [y, m, d] = String(day).split('-').map(Number);
  const at = new Date(Date.UTC(y!, m! - 1, d!));
  // Not a day (never from the server): shown as it is rather than "Invalid Date".
  if (Number.isNaN(at.getTime())) return String(day);
  return at.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

export const MOVE_OUT_MESSAGES = {
  dateRequired: 'Give your move-out date as a calendar day, like 2027-05-10',
  dateInvalid: 'The move-out date must be a real calendar day, like 2027-05-10',
  dateNotFuture: 'Your move-out date must be in the future',
  dateTooFar: `Your move-out date can be at most ${MOVE_OUT_LIMITS.maxDaysAhead} days ahead`,
  floorInvalid: `The lowest price must be between ${MOVE_OUT_LIMITS.floorPercentMin} % and ${MOVE_OUT_LIMITS.floorPercentMax} % of the original price, as a whole number`,
  bodyInvalid: 'Send {date, autoDrop?, floorPercent?, thenFree?}',
  noPlan: 'You have not set a move-out date',
  sellerInvalid: 'The seller id must be a positive whole number',
  // web
  mustGoBy: (day: string) => `Must go by ${formatDay(day)}`,
  shelfTitle: 'Moving out',
  shelfHint: 'Students leaving soon: these have to go, soonest first.',
  formTitle: 'Moving out?',
  formHint:
    'Set the day you move out: your available listings show “Must go by” and join the campus moving-out shelf.',
  autoDropLabel: 'Lower my prices automatically (20 % a week before, 40 % two days before)',
  floorLabel: 'Never below (percent of the original price)',
  thenFreeLabel: 'Give what is left away for free on the day',
  thenUnlistLabel: 'Take what is left off the market on the day',
  saved: 'Your move-out plan is saved',
  cleared: 'Your move-out plan is cleared',
  emptyShelf: 'Nobody on campus is moving out right now.',
} as const;

export const HOLD_MESSAGES = {
  holdInvalid: 'Give the hold date as a calendar day, like 2027-08-25',
  holdNotFuture: 'The hold date must be in the future',
  holdTooFar: `The hold date can be at most ${HOLD_LIMITS.maxDaysAhead} days ahead`,
  meetupTooEarly: (holdDay: string, fromDay: string) =>
    `This item is held until ${formatDay(holdDay)}: meet-ups can be proposed from ${formatDay(fromDay)}`,
  heldFor: (firstName: string, day: string) => `Held for ${firstName} until ${formatDay(day)}`,
  heldUntil: (day: string) => `Held until ${formatDay(day)}`,
  heldForYou: (day: string) => `Held for you until ${formatDay(day)}`,
  holdOption: 'Hold until… (pick it up in the fall)',
  reminder: (listing: string, day: string, daysLeft: number) =>
    `Reminder: “${listing}” is held until ${formatDay(day)} (${daysLeft === 1 ? 'tomorrow' : `in ${daysLeft} days`}). Agree on a time and place for the hand-off.`,
  reminderTitle: (listing: string, day: string) => `Held item: “${listing}” on ${formatDay(day)}`,
  heldAccepted: (day: string) =>
    `The listing is held until ${formatDay(day)}: the reservation lasts until 48 hours after that day.`,
} as const;

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `s` is a real calendar day written YYYY-MM-DD. */
export function isCalendarDay(s: string): boolean {
  if (!DAY_RE.test(s)) return false;
  const [y, m, d] = s.split('-').map(Number);
  const t = new Date(Date.UTC(y!, m! - 1, d!));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m! - 1 && t.getUTCDate() === d;
}

/** 00:00 of a calendar day in a time zone, as epoch ms. */
export function dayStartMs(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const utcMidnight = Date.UTC(y!, m! - 1, d!);
  // The offset at that instant; re-read once in case midnight falls across a DST change.
  let at = utcMidnight - zoneOffsetMs(utcMidnight, timeZone);
  at = utcMidnight - zoneOffsetMs(at, timeZone);
  return at;
}

/** The calendar day an instant falls on in a time zone (YYYY-MM-DD). */
export function dayOf(epochMs: number, timeZone: string): string {
  const w = wallTime(epochMs, timeZone);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** GET/PUT /users/me/move-out. */
export interface MoveOutPlan {
  date: string;
  autoDrop: boolean;
  floorPercent: number;
  thenFree: boolean;
}

/** A campus's move-out season: the dashboard leads with the moving-out shelf between the days. */
export interface MoveOutSeason {
  from: string;
  to: string;
}

/** Whether `day` (YYYY-MM-DD) falls in the season. */
export function inMoveOutSeason(season: MoveOutSeason | null | undefined, day: string): boolean {
  return !!season && season.from <= day && day <= season.to;
}
