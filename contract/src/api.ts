import { z } from './zod.js';
import type { PublicUser, UserInfo } from './accounts.js';
import { CATEGORIES } from './categories.js';
import type { ChatMessage, ChatRoomSummary } from './chat.js';
import { LIMITS, SEARCH_QUERY_MAX } from './limits.js';
import type { Listing } from './listings.js';
import { IMAGE_VARIANT_FORMATS, type ImageVariants } from './media.js';
import { CONDITIONS, SORTS } from './selling-rules.js';
import { MESSAGE_KINDS } from './chat.js';
import { LISTING_STATUSES } from './deals-rules.js';
import { meetupResponse, offerResponse } from './deals.js';

/**
 * Zod schemas of the API's answers and of the query strings parsed by hand, for the OpenAPI
 * document (server/src/http/openapi.ts). `satisfies` keeps each one in step with the interface
 * the code uses: a field added to the interface and not here fails the typecheck.
 */

/** `{message}` answers (sign-up, verify, resend…). */
export const messageResponse = z.object({ message: z.string() });

export const publicUserResponse = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
}) satisfies z.ZodType<PublicUser>;

export const userInfoResponse = publicUserResponse.extend({
  email: z.string(),
}) satisfies z.ZodType<UserInfo>;

/** Responsive AVIF/WebP copies of a photo (media.ts). */
export const imageVariantsResponse = z
  .object({
    url: z.string().describe('Template with {width} and {format}'),
    widths: z.array(z.number().int()),
    formats: z.array(z.enum(IMAGE_VARIANT_FORMATS)),
  })
  .nullable()
  .describe('Null without a photo') satisfies z.ZodType<ImageVariants | null>;

export const listingResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  category: z.enum(CATEGORIES),
  price: z.number().describe('Dollars, at most 2 decimals'),
  imageUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  imageVariants: imageVariantsResponse,
  seller: publicUserResponse,
  isSold: z.boolean(),
  status: z.enum(LISTING_STATUSES).describe("Deals (features.md §A); isSold === (status === 'SOLD')"),
  createdAt: z.string().describe('ISO 8601'),
  // Selling (features.md §B)
  condition: z.enum(CONDITIONS).nullable(),
  courseCode: z.string().nullable().describe('Books only, normalised (CSE232)'),
  isbn: z.string().nullable().describe('Books only, ISBN-13'),
  photos: z
    .array(
      z.object({
        id: z.number().int(),
        url: z.string(),
        thumbnailUrl: z.string(),
        variants: imageVariantsResponse,
      }),
    )
    .describe('Up to 8; the first is the cover (= imageUrl / thumbnailUrl)'),
  expiresAt: z
    .string()
    .nullable()
    .describe('ISO 8601; leaves browse and search then unless renewed (features.md §H)'),
  mustGoBy: z.string().nullable().describe("Moving out: the seller's move-out day while AVAILABLE"),
  heldUntil: z.string().nullable().describe('Hold for fall: the pick-up day of a held reservation'),
  savedByMe: z.boolean().describe('The caller saved it'),
  saveCount: z.number().int().optional().describe('Seller only: how many students saved it'),
  wantedCount: z
    .number()
    .int()
    .optional()
    .describe('Seller only: students with an open wanted post this listing matched'),
  reservedFor: publicUserResponse.optional().describe('RESERVED, seller and reserved buyer only'),
  expired: z
    .boolean()
    .optional()
    .describe('Seller only: past expiresAt; renew with POST /listing/{id}/renew'),
  free: z.boolean().describe('A free item (price 0) takes claims instead of offers (features.md §H)'),
  claimWindowHours: z.number().int().optional().describe('Free items: hours claims collect after posting'),
  claimsCloseAt: z.string().optional().describe('Free items: when the claim window closes'),
}) satisfies z.ZodType<Listing>;

export const chatMessageResponse = z.object({
  id: z.number().int(),
  roomId: z.string(),
  content: z.string(),
  url: z.string().nullable(),
  senderId: z.number().int(),
  sentAt: z.string(),
  listingId: z.number().int().nullable(),
  kind: z.enum(MESSAGE_KINDS).describe("'text' for typed messages; offer/meetup cards and system events"),
  offer: offerResponse.optional().describe('Offer cards and system messages about an offer'),
  meetup: meetupResponse.optional().describe('Meet-up cards and system messages about a meet-up'),
  flags: z
    .array(z.string())
    .optional()
    .describe("Anti-scam flags (SCAM_FLAGS); only on the recipient's copy"),
}) satisfies z.ZodType<ChatMessage>;

export const chatRoomResponse = z.object({
  id: z.string(),
  roomKey: z.string(),
  buyerId: z.number().int(),
  sellerId: z.number().int(),
  listingId: z.number().int().nullable(),
  messageCount: z.number().int(),
  unreadCount: z.number().int(),
  lastMessage: chatMessageResponse.nullable(),
  peer: publicUserResponse,
  listing: z
    .object({ id: z.number().int(), name: z.string(), thumbnailUrl: z.string().nullable() })
    .nullable(),
}) satisfies z.ZodType<ChatRoomSummary>;

/** `limit` and `cursor` of every listing page (parsed by server/src/listings/query.ts). */
export const pageQueryDoc = z.object({
  limit: z.number().int().min(1).max(LIMITS.pageMax).optional().describe(`Default ${LIMITS.pageDefault}`),
  cursor: z.string().optional().describe('Opaque; copy it from the `link` header of the previous page'),
});

export const filterQueryDoc = pageQueryDoc.extend({
  categories: z
    .union([z.enum(CATEGORIES), z.array(z.enum(CATEGORIES))])
    .optional()
    .describe('Repeated or comma-separated, any case'),
  priceMin: z.string().optional().describe('Dollars, inclusive'),
  priceMax: z.string().optional().describe('Dollars, inclusive'),
  free: z.enum(['true', 'false']).optional().describe('true: free items only (features.md §H)'),
  conditions: z
    .union([z.enum(CONDITIONS), z.array(z.enum(CONDITIONS))])
    .optional()
    .describe('Repeated or comma-separated'),
  courseCode: z.string().optional().describe('Any spacing or case: "cse 232" = CSE232'),
  isbn: z.string().optional().describe('ISBN-10 or ISBN-13'),
  sort: z
    .enum(SORTS)
    .optional()
    .describe('newest (browse default), price_asc, price_desc; relevance on /search (its default)'),
});

export const searchQueryDoc = filterQueryDoc.extend({
  query: z.string().max(SEARCH_QUERY_MAX).optional().describe('Fuzzy text; empty browses'),
});
