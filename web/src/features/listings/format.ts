import type { Listing } from '@campus/contract';
import { calendarDate, liveBasis, type TimeBasis } from '../../ui/timeBasis';

/*
 * "Listed … ago" is on every card of the first screen. It used to come from
 * `Intl.RelativeTimeFormat` and `Intl.DateTimeFormat` built when this module loaded, and the first
 * Intl object a page builds makes the browser load its locale data: ≈ 25 ms on a desktop core,
 * ≈ 100–150 ms of blocked main thread on a mid-range phone (Lighthouse's 4× slowdown), during the
 * page's start-up. The app's wording is English (en-US) everywhere, so these few fixed formats are
 * written out here; format.test.ts checks them against Intl's output. Prices: the contract's
 * money.ts, written out for the same reason.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "1,234" for a whole non-negative number. */
function grouped(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

type Unit = 'minute' | 'hour' | 'day';

/** en-US relative time with `numeric: 'auto'`: "5 minutes ago", "in 1 hour", "yesterday". */
function relative(value: number, unit: Unit): string {
  if (unit === 'day' && value === -1) return 'yesterday';
  if (unit === 'day' && value === 1) return 'tomorrow';
  if (value === 0) return unit === 'day' ? 'today' : `this ${unit}`;
  const n = Math.abs(value);
  const words = `${grouped(n)} ${unit}${n === 1 ? '' : 's'}`;
  return value < 0 ? `${words} ago` : `in ${words}`;
}

/** "Mar 3, 2026" in the basis's time zone. */
function shortDate(time: number, basis: TimeBasis): string {
  const d = calendarDate(time, basis);
  return `${MONTHS[d.month]} ${d.day}, ${d.year}`;
}

/** "just now", "5 minutes ago", "yesterday", then a date; relative to the basis's now. */
export function listedAgo(iso: string, basis: TimeBasis = liveBasis()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - basis.now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3600) return relative(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return relative(Math.round(seconds / 86_400), 'day');
  return shortDate(time, basis);
}

/** "Maya R." — first name and initial of the last name. */
export function sellerShortName(seller: Listing['seller']): string {
  const last = seller.lastName.trim();
  return last ? `${seller.firstName} ${last.charAt(0)}.` : seller.firstName;
}
