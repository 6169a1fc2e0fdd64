import { z } from './zod.js';
import { amountSchema } from './deals.js';
import { DEALS_MESSAGES } from './deals-rules.js';
import { dbIdSchema } from './id-schema.js';
import { formatDollars } from './money.js';

/**
 * Bundles (features.md §H "Bundles"): one offer for 2–10 AVAILABLE listings of one seller, answered
 * like any offer; accepting reserves them all, and one meet-up and one hand-off code confirm them
 * as one deal with `items`.
 */

export const BUNDLE_LIMITS = {
  minListings: 2,
  maxListings: 10,
} as const;

export const BUNDLE_MESSAGES = {
  bodyInvalid: 'Send {listingIds: [2 to 10 listing ids], amount}',
  listingIdsRequired: `Pick ${BUNDLE_LIMITS.minListings} to ${BUNDLE_LIMITS.maxListings} listings for a bundle`,
  tooFew: `A bundle holds at least ${BUNDLE_LIMITS.minListings} listings. For one item, make an ordinary offer.`,
  tooMany: `A bundle holds at most ${BUNDLE_LIMITS.maxListings} listings`,
  duplicates: 'Each listing can be in a bundle only once',
  // No id in the words: another campus's listing must answer exactly like an unknown one.
  listingMissing:
    'A listing of this bundle does not exist or was deleted. Pick the items again from the seller’s page.',
  oneSeller: 'All listings of a bundle must be from the same seller',
  ownListings: 'You cannot make an offer on your own listings',
  notAvailable: (name: string) =>
    `"${name}" is reserved or sold, so this bundle cannot go ahead. Make a new bundle without it.`,
  // web
  addToBundle: 'Add to bundle',
  removeFromBundle: 'Remove from bundle',
  inBundle: 'In bundle',
  trayTitle: (n: number) => `Bundle · ${n} ${n === 1 ? 'item' : 'items'}`,
  trayHint: `Pick ${BUNDLE_LIMITS.minListings}–${BUNDLE_LIMITS.maxListings} items from this seller and make one offer for all of them.`,
  offerForBundle: 'Offer for the bundle',
  askingTotal: (total: number) => `Asking ${formatDollars(total)} in total`,
  bundleLabel: (n: number) => `Bundle of ${n} items`,
} as const;

/** Body of POST /bundles. */
export const bundleBodySchema = z.object(
  {
    listingIds: z
      .array(dbIdSchema(DEALS_MESSAGES.listingIdInvalid), { error: BUNDLE_MESSAGES.listingIdsRequired })
      .min(BUNDLE_LIMITS.minListings, BUNDLE_MESSAGES.tooFew)
      .max(BUNDLE_LIMITS.maxListings, BUNDLE_MESSAGES.tooMany)
      .refine((ids) => new Set(ids).size === ids.length, { message: BUNDLE_MESSAGES.duplicates }),
    amount: amountSchema,
  },
  { error: BUNDLE_MESSAGES.bodyInvalid },
);
export type BundleBody = z.input<typeof bundleBodySchema>;

/** The deal's name when it holds several listings: "Desk lamp + 2 more", within the column's 120. */
export function bundleDealName(names: readonly string[]): string {
  const first = names[0] ?? '';
  if (names.length <= 1) return first;
  const suffix = ` + ${names.length - 1} more`;
  return first.slice(0, 120 - suffix.length) + suffix;
}

/** System lines of a bundle's story in the chat (see DEAL_EVENTS for the single-listing ones). */
export const BUNDLE_EVENTS = {
  offerMade: (actor: string, count: number, amount: number) =>
    `${actor} offered ${formatDollars(amount)} for a bundle of ${count} items`,
  offerAccepted: (actor: string, count: number, amount: number) =>
    `${actor} accepted the bundle offer of ${formatDollars(amount)}. All ${count} listings are reserved.`,
  handoffDone: (count: number, amount: number) =>
    `Hand-off confirmed: ${count} items sold for ${formatDollars(amount)} in total. You can now rate each other.`,
} as const;
