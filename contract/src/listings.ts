import { z } from './zod.js';
import { CATEGORIES, type Category } from './categories.js';
import { LIMITS } from './limits.js';
import type { ImageVariants } from './media.js';
import { MESSAGES } from './messages.js';
import { readPrice, type PriceProblem } from './money.js';
import { type Condition, type ListingPhoto } from './selling-rules.js';
import { listingExtrasSchema } from './selling.js';
import type { ListingStatus } from './deals-rules.js';
import type { ReservedFor } from './deals.js';

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
  /** Section H (freshness.ts): leaves browse and search then unless renewed; null before upgrade. */
  expiresAt: string | null;
  /** Moving out (features.md §H): the seller's move-out day (YYYY-MM-DD) while AVAILABLE, else null. */
  mustGoBy: string | null;
  /** Hold for fall: RESERVED by a held offer, the pick-up day (YYYY-MM-DD), else null. */
  heldUntil: string | null;
  /** Whether the caller saved this listing (personalised after the hot cache). */
  savedByMe: boolean;
  /** Seller only: how many students saved it. */
  saveCount?: number;
  /** Seller only: how many students have an open wanted post this listing matched. */
  wantedCount?: number;
  /** Seller only: the listing is past `expiresAt` (shown as EXPIRED with "Renew"). */
  expired?: boolean;
  /** RESERVED, seller and reserved buyer only: who it is reserved for. */
  reservedFor?: ReservedFor;
  /** Section H (claims.ts): a free item takes claims instead of offers; its price is 0. */
  free: boolean;
  /** Free items only: hours after posting during which claims collect (1–72). */
  claimWindowHours?: number;
  /** Free items only: when the claim window closes (ISO). */
  claimsCloseAt?: string;
}

/** What to say when one of the four fields every listing has is missing. */
type MissingFieldMessages = Record<'name' | 'category' | 'description' | 'price', string>;

/**
 * The four fields every listing has, checked the same way by the API and the web form: only the
 * words for a missing field differ (the API says one sentence for all, the form names the field).
 */
function listingFields(missing: MissingFieldMessages) {
  // Spec §5: a price of 0 counts as missing.
  const priceMessages: Record<PriceProblem, string> = {
    missing: missing.price,
    invalid: MESSAGES.priceInvalid,
    zero: missing.price,
    tooHigh: MESSAGES.priceTooHigh,
  };
  return {
    name: z.string().trim().min(1, missing.name).max(LIMITS.listingNameMax, MESSAGES.listingNameTooLong),
    category: z
      .string()
      .trim()
      .min(1, missing.category)
      .transform((c) => c.toUpperCase())
      .pipe(z.enum(CATEGORIES, { error: MESSAGES.categoryInvalid })),
    description: z
      .string()
      .trim()
      .min(1, missing.description)
      .max(LIMITS.descriptionMax, MESSAGES.descriptionTooLong),
    price: z
      .string()
      .trim()
      .min(1, missing.price)
      .transform((p, ctx) => {
        const price = readPrice(p);
        if (price.ok) return price.cents;
        ctx.addIssue({ code: 'custom', message: priceMessages[price.problem] });
        return z.NEVER;
      }),
  };
}

/** Fields of the multipart create form, all strings as they arrive (spec §7). */
export const createListingSchema = z.object(
  listingFields({
    name: MESSAGES.listingRequiredFields,
    category: MESSAGES.listingRequiredFields,
    description: MESSAGES.listingRequiredFields,
    price: MESSAGES.listingRequiredFields,
  }),
);
export type CreateListingFields = z.input<typeof createListingSchema>;
export type CreateListingInput = z.output<typeof createListingSchema>;

/** The web's add and edit form names the missing field under it. */
export const LISTING_FORM_MISSING: MissingFieldMessages = {
  name: MESSAGES.listingNameRequired,
  category: MESSAGES.listingCategoryRequired,
  description: MESSAGES.listingDescriptionRequired,
  price: MESSAGES.listingPriceRequired,
};

/**
 * The price box is a number input: the browser hands over what it could read as a number, and
 * any spelling of zero ("0.000", "-0") or a non-number is a missing price there, not a bad one.
 */
function numberInputPrice(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const n = Number(value);
  return Number.isFinite(n) && n !== 0 ? value : '';
}

/**
 * The web's add and edit form, checked before anything is sent: the API's rules and messages
 * for the shared fields, the form's own words for a missing one, and the extras a category has
 * (leave out the ones the chosen category does not show).
 */
const formFields = listingFields(LISTING_FORM_MISSING);
export const listingFormSchema = z.object({
  ...formFields,
  price: z.preprocess(numberInputPrice, formFields.price),
  ...listingExtrasSchema.shape,
});
export type ListingFormFields = z.input<typeof listingFormSchema>;
