import { z } from './zod.js';
import { CATEGORIES } from './categories.js';
import { MESSAGES } from './messages.js';
import { formatDollars } from './money.js';
import { conditionField, courseCodeField, isbnField } from './selling.js';

/** Section H of features.md: freshness (listings expire and are renewed) and the price guide. */

export const FRESHNESS_LIMITS = {
  /** LISTING_DAYS when the server is not told otherwise. */
  listingDaysDefault: 30,
  /** The seller hears LISTING_EXPIRING this many days before the listing leaves browse. */
  expiringNoticeDays: 3,
} as const;

export const PRICE_GUIDE_LIMITS = {
  /** Fewer matching deals than this: no guide (204), a price from one or two sales misleads. */
  minDeals: 3,
  /** Deals older than this do not count. */
  windowDays: 365,
  /** The name (`query`) a guide is asked for. */
  queryMax: 120,
} as const;

export const FRESHNESS_MESSAGES = {
  renewSold: 'A sold listing cannot be renewed. Mark it unsold first if it is back on the market.',
  renewRemoved: 'This listing was removed by a moderator and cannot be renewed.',
  expiringTitle: (listing: string, days: number) =>
    `“${listing}” leaves the market in ${days === 1 ? '1 day' : `${days} days`}`,
  expiringBody: 'Still for sale? Renew it with one tap to keep it listed.',
  expiringAction: 'Renew',
} as const;

export const PRICE_GUIDE_MESSAGES = {
  categoryRequired: 'Choose a category (or give a course code or ISBN) to see what it sold for',
  queryRequired: 'Type the item’s name to see what similar items sold for',
  queryTooLong: `The name can be at most ${PRICE_GUIDE_LIMITS.queryMax} characters`,
  categoryInvalid: MESSAGES.categoryInvalid,
} as const;

/**
 * GET /listings/price-guide. BOOKS with an ISBN or a course code: deals of the same ISBN or course;
 * anything else: same category (and condition when given) and a search match on the name.
 */
export const priceGuideQuery = z.object({
  category: z
    .string()
    .trim()
    .optional()
    .transform((c) => (c === undefined || c === '' ? undefined : c.toUpperCase()))
    .pipe(z.enum(CATEGORIES, { error: PRICE_GUIDE_MESSAGES.categoryInvalid }).optional()),
  condition: conditionField,
  isbn: isbnField,
  courseCode: courseCodeField,
  query: z.string().trim().max(PRICE_GUIDE_LIMITS.queryMax, PRICE_GUIDE_MESSAGES.queryTooLong).optional(),
});
export type PriceGuideQuery = z.output<typeof priceGuideQuery>;

/** Dollars, like every price in the API. */
export const priceGuideResponse = z.object({
  low: z.number(),
  median: z.number(),
  high: z.number(),
  count: z.number().int(),
});
export type PriceGuide = z.infer<typeof priceGuideResponse>;

/** "Sold on campus for $20–$35", or "$25" alone when every sale was at one price. */
export function priceGuideLine(guide: Pick<PriceGuide, 'low' | 'high'>): string {
  const range =
    guide.low === guide.high
      ? formatDollars(guide.low)
      : `${formatDollars(guide.low)}–${formatDollars(guide.high)}`;
  return `Sold on campus for ${range}`;
}

/** "Expires in 3 days", "Expires within a day", "Expired": what My Listings says of a listing. */
export function expiryLabel(expiresAt: string | null, now: number): string | null {
  if (expiresAt === null) return null;
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return 'Expired';
  const days = Math.ceil(left / 86_400_000);
  if (days <= 1) return 'Expires within a day';
  return `Expires in ${days} days`;
}
