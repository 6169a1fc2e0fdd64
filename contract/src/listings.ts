import { z } from './zod.js';
import { CATEGORIES, type Category } from './categories.js';
import { LIMITS } from './limits.js';
import type { ImageVariants } from './media.js';
import { MESSAGES } from './messages.js';
import type { Condition, ListingPhoto } from './selling.js';
import type { ListingStatus, ReservedFor } from './deals.js';

/** A listing as every API answer shapes it (no seller e-mail: design §3). */
export interface Listing {
  id: number;
  name: string;
  description: string;
  category: Category;
  /** Dollars, at most 2 decimals. */
  price: number;
  imageUrl: string | null;
  thumbnailUrl: string | null;
  /** Responsive variants of the photo (`<picture>` sources); null when there is no photo. */
  imageVariants: ImageVariants | null;
  seller: { id: number; firstName: string; lastName: string };
  isSold: boolean;
  /** Section A (deals.ts): isSold === (status === 'SOLD'). */
  status: ListingStatus;
  createdAt: string;
  // Section B (selling.ts): the cover is photos[0] (= imageUrl/thumbnailUrl).
  condition: Condition | null;
  courseCode: string | null;
  isbn: string | null;
  photos: ListingPhoto[];
  /** Whether the caller saved this listing (personalised after the hot cache). */
  savedByMe: boolean;
  /** Seller only: how many students saved it. */
  saveCount?: number;
  /** Seller only: how many students have an open wanted post this listing matched. */
  wantedCount?: number;
  /** RESERVED, seller and reserved buyer only: who it is reserved for. */
  reservedFor?: ReservedFor;
}

/**
 * Parses a price the way a person types it ("12", "12.5", "12.50") into integer cents.
 * Returns null when it is not a plain non-negative number with at most 2 decimals.
 */
export function dollarsToCents(input: string | number): number | null {
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  const [whole, frac = ''] = text.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** Fields of the multipart create form, all strings as they arrive (spec §7). */
export const createListingSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, MESSAGES.listingRequiredFields)
    .max(LIMITS.listingNameMax, MESSAGES.listingNameTooLong),
  category: z
    .string()
    .trim()
    .min(1, MESSAGES.listingRequiredFields)
    .transform((c) => c.toUpperCase())
    .pipe(z.enum(CATEGORIES, { error: MESSAGES.categoryInvalid })),
  description: z
    .string()
    .trim()
    .min(1, MESSAGES.listingRequiredFields)
    .max(LIMITS.descriptionMax, MESSAGES.descriptionTooLong),
  price: z
    .string()
    .trim()
    .min(1, MESSAGES.listingRequiredFields)
    .transform((p, ctx) => {
      const cents = dollarsToCents(p);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.priceInvalid });
        return z.NEVER;
      }
      if (cents === 0) {
        // Spec §5: a price of 0 counts as missing.
        ctx.addIssue({ code: 'custom', message: MESSAGES.listingRequiredFields });
        return z.NEVER;
      }
      if (cents > LIMITS.priceMaxDollars * 100) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.priceTooHigh });
        return z.NEVER;
      }
      return cents;
    }),
});
export type CreateListingFields = z.input<typeof createListingSchema>;
export type CreateListingInput = z.output<typeof createListingSchema>;
