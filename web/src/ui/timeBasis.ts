import { wallTime, zoneOffsetMs } from '@campus/contract';
import { createContext, useContext } from 'react';
import { isServer, serverRequest } from '../ssr/request';

/**
 * What a time on screen is relative to: "5 minutes ago", "Today 7:08 AM", "Member since …".
 *
 * A server-rendered page must be taken over (hydrated) with exactly the text the server drew, or
 * React throws the server's markup of the whole page away and draws it again — losing what the
 * student typed meanwhile, and the time saved. So the browser's first render uses the server's
 * basis — the moment the page was rendered, its time zone and the app's en-US wording — and
 * `useTimeBasis` switches to the student's own clock, zone and locale right after (React renders
 * again when a store's client snapshot differs from the one it hydrated with).
 */
export interface TimeBasis {
  /** Milliseconds since the epoch that "now" is. */
  now: number;
  /** Intl locale; undefined: the student's (the browser's). */
  locale?: string;
  /** IANA time zone; undefined: this machine's own. */
  timeZone?: string;
}

/** The wording of server-rendered times (the app's wording is English everywhere). */
const RENDER_LOCALE = 'en-US';

/** What the server sends beside the page for the browser's first render. */
export interface SentClock {
  now: number;
  timeZone: string;
  /** The server's offset from UTC at `now` (Date#getTimezoneOffset), to tell whether zones differ. */
  offset: number;
}

let ownZone: string | undefined;
/** This machine's IANA zone (asked once: building an Intl object is not free). */
function machineZone(): string {
  ownZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return ownZone;
}

/** Minutes `timeZone` is behind UTC at `now`, signed like Date#getTimezoneOffset (New York in winter: 300). */
export function zoneOffset(now: number, timeZone: string): number {
  const minutes = Math.round(-zoneOffsetMs(now, timeZone) / 60_000);
  return minutes === 0 ? 0 : minutes; // never -0: UTC's offset is 0, as Date#getTimezoneOffset says
}

/**
 * The clock a server render uses (taken once per page: every render round must say the same):
 * the campus's zone when given, so that a student whose phone is on campus time is shown the
 * same times by the HTML as by the app afterwards — no flash from the server's zone (often UTC)
 * to theirs.
 */
export function renderClock(now: number, timeZone?: string): SentClock {
  const zone = timeZone ?? machineZone();
  return {
    now,
    timeZone: zone,
    offset: zone === machineZone() ? new Date(now).getTimezoneOffset() : zoneOffset(now, zone),
  };
}

let hydrationBasis: TimeBasis | null = null;

/** The browser keeps the server's clock for the first render of a server-rendered page. */
export function keepServerClock(sent: SentClock | undefined): void {
  if (!sent || typeof sent.now !== 'number') return;
  // Same offset: this machine's own zone draws the same dates, without Intl's cost on a phone.
  const sameZone = new Date(sent.now).getTimezoneOffset() === sent.offset;
  hydrationBasis = {
    now: sent.now,
    locale: RENDER_LOCALE,
    timeZone: sameZone ? undefined : sent.timeZone,
  };
}

const LIVE: TimeBasis = { now: 0 };
function renderSnapshot(): TimeBasis {
  if (isServer) return serverRequest()?.timeBasis ?? LIVE;
  return hydrationBasis ?? LIVE;
}

/** Whether a render is to use the server's basis: on the server, and while a rendered page is taken over. */
export function rendersWithServerBasis(): boolean {
  return isServer || hydrationBasis !== null;
}

/**
 * false while the tree renders with the server's basis, then true (TimeBasisProvider). A context
 * rather than a store: a store whose browser value differs from the server's makes React draw every
 * reader again synchronously right after hydration — every listing card and inbox row in one long
 * task on a phone — while a context switched in a transition is drawn again in slices.
 */
export const LiveClockContext = createContext(true);

/** The student's own clock, zone and locale. */
export function liveBasis(): TimeBasis {
  return { now: Date.now() };
}

/** The basis of this render: the server's while a rendered page is taken over, then the student's. */
export function useTimeBasis(): TimeBasis {
  const live = useContext(LiveClockContext);
  const basis = live ? LIVE : renderSnapshot();
  return basis === LIVE ? liveBasis() : basis;
}

/**
 * The basis of a server render (one object per request: React asks for it many times). The zone
 * is named only when it is not the server's own (then every formatter passes it to Intl).
 */
export function serverTimeBasis(clock: SentClock): TimeBasis {
  const timeZone = clock.timeZone === machineZone() ? undefined : clock.timeZone;
  return { now: clock.now, locale: RENDER_LOCALE, ...(timeZone ? { timeZone } : {}) };
}

/** Year, month (0–11) and day of `time` in the basis's zone. */
export function calendarDate(time: number, basis: TimeBasis): { year: number; month: number; day: number } {
  if (!basis.timeZone) {
    const d = new Date(time);
    return { year: d.getFullYear(), month: d.getMonth(), day: d.getDate() };
  }
  const w = wallTime(time, basis.timeZone);
  return { year: w.year, month: w.month - 1, day: w.day };
}

/** Whether `time` falls in the basis's current year (dates then leave the year out). */
export function isThisYear(time: number, basis: TimeBasis): boolean {
  return calendarDate(time, basis).year === calendarDate(basis.now, basis).year;
}

/** Days from the calendar day of `time` to the calendar day of the basis's now (0: today). */
export function daysBefore(time: number, basis: TimeBasis): number {
  const day = (t: number) => {
    const c = calendarDate(t, basis);
    return Date.UTC(c.year, c.month, c.day);
  };
  return Math.round((day(basis.now) - day(time)) / 86_400_000);
}

/** Intl options naming the basis's zone, when it is not this machine's own. */
export function zoneOption(basis: TimeBasis): { timeZone?: string } {
  return basis.timeZone ? { timeZone: basis.timeZone } : {};
}
