import type { Listing } from '@campus/contract';

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

/** "$24", "$12.50", "$1,200": two decimals only when the price has cents. */
export function formatPrice(price: number): string {
  if (!Number.isFinite(price)) return '$—';
  const cents = Math.round(price * 100);
  return cents % 100 === 0 ? WHOLE.format(cents / 100) : CENTS.format(cents / 100);
}

const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** "just now", "5 minutes ago", "yesterday", then a date. */
export function listedAgo(iso: string, now: number = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3600) return RELATIVE.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return RELATIVE.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return RELATIVE.format(Math.round(seconds / 86_400), 'day');
  return DATE.format(time);
}

/** "Maya R." — first name and initial of the last name. */
export function sellerShortName(seller: Listing['seller']): string {
  const last = seller.lastName.trim();
  return last ? `${seller.firstName} ${last.charAt(0)}.` : seller.firstName;
}
