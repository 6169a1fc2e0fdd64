import { z } from './zod.js';
import {
  DEALS_LIMITS,
  DEALS_MESSAGES,
  HANDOFF_CODE_PATTERN,
  MEETUP_STATUSES,
  OFFER_STATUSES,
  type MeetupStatus,
  type OfferStatus,
} from './deals-rules.js';
import { dbIdSchema } from './id-schema.js';
import { readPrice } from './money.js';
import { holdUntilSchema } from './moving-out.js';

/**
 * Section A of features.md (deals): the shapes of offers, meet-ups, the hand-off code and deals,
 * the request and answer schemas, and the default meet-up spots. Statuses, limits and messages live
 * in deals-rules.ts; reviews and profiles in trust.ts.
 */

export interface ReservedFor {
  id: number;
  firstName: string;
  lastName: string;
}

export interface Offer {
  id: number;
  listingId: number;
  roomId: string;
  buyerId: number;
  /** Who made it: the buyer, or the seller for a counter-offer. */
  byId: number;
  /** Dollars. */
  amount: number;
  status: OfferStatus;
  createdAt: string;
  expiresAt: string;
  /** A free item's pickup (features.md §H): the accepted offer of 0 a claim's win created. */
  claimId?: number;
  /** A bundle offer only (features.md §H): every listing it is for; `listingId` is the first. */
  listingIds?: number[];
  /** A bundle offer only: its listings as the card shows them, in the buyer's order. */
  items?: BundleItem[];
  /** Hold for fall (features.md §H): the day the buyer picks it up (YYYY-MM-DD), or null. */
  holdUntil: string | null;
}

/** An item of a bundle offer, as its card shows it. */
export interface BundleItem {
  listingId: number;
  listingName: string;
  /** The listing's asking price now, dollars. */
  price: number;
  thumbnailUrl: string | null;
}

/** An item of a deal: what was sold (a single-listing deal has one). */
export interface DealItem {
  listingId: number;
  listingName: string;
}

export interface MeetupSpot {
  id: string;
  name: string;
  description: string;
}

export interface Meetup {
  id: number;
  listingId: number;
  roomId: string;
  proposerId: number;
  /** A configured spot, or null for a typed place. */
  spotId: string | null;
  /** The spot's name, or the typed place. */
  place: string;
  startsAt: string;
  status: MeetupStatus;
  createdAt: string;
  /** NO_SHOW only: the student reported as absent. */
  reportedUserId: number | null;
}

export interface Deal {
  id: number;
  listingId: number;
  listingName: string;
  sellerId: number;
  buyerId: number;
  /** Dollars. */
  price: number;
  completedAt: string;
  /** What was sold: the one listing, or every listing of a bundle (features.md §H). */
  items: DealItem[];
}

export interface HandoffCode {
  code: string;
}

/** Dollars as a JSON number or string: > 0, ≤ 100,000, at most 2 decimals → integer cents. */
export const amountSchema = z
  .union([z.number(), z.string()], { error: DEALS_MESSAGES.amountRequired })
  .transform((v, ctx) => {
    const amount = readPrice(v);
    if (amount.ok) return amount.cents;
    ctx.addIssue({ code: 'custom', message: DEALS_MESSAGES.amountInvalid });
    return z.NEVER;
  });

/** Body of POST /listings/{id}/offers and POST /offers/{id}/counter (a counter keeps the hold). */
export const offerBodySchema = z.object(
  { amount: amountSchema, holdUntil: holdUntilSchema },
  { error: DEALS_MESSAGES.amountRequired },
);
export type OfferBody = z.input<typeof offerBodySchema>;

/**
 * Body of POST /listings/{id}/offers. `roomId` names the chat: the seller must give it (they offer
 * the listing to the other student of that chat, at the price they agreed); a buyer may leave it
 * out (their chat with the seller is implied).
 */
export const makeOfferBodySchema = z.object(
  { amount: amountSchema, holdUntil: holdUntilSchema, roomId: z.string().max(40).optional() },
  { error: DEALS_MESSAGES.amountRequired },
);
export type MakeOfferBody = z.input<typeof makeOfferBodySchema>;

/** Body of POST /meetups. startsAt is checked against the clock by the server. */
export const meetupBodySchema = z
  .object(
    {
      listingId: dbIdSchema(DEALS_MESSAGES.listingIdInvalid),
      /** The chat (seller and one buyer); optional for a buyer, or a seller of a reserved listing. */
      roomId: z.string().max(40).optional(),
      spotId: z.string().trim().min(1, DEALS_MESSAGES.meetupSpotUnknown).max(40).optional(),
      place: z.string().trim().max(DEALS_LIMITS.meetupPlaceMax, DEALS_MESSAGES.meetupPlaceTooLong).optional(),
      startsAt: z
        .string({ error: DEALS_MESSAGES.meetupStartsAtInvalid })
        .refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), {
          message: DEALS_MESSAGES.meetupStartsAtInvalid,
        }),
    },
    { error: DEALS_MESSAGES.meetupBodyInvalid },
  )
  .superRefine((b, ctx) => {
    const hasPlace = !!b.place && b.place.length > 0;
    if (!b.spotId && !hasPlace) ctx.addIssue({ code: 'custom', message: DEALS_MESSAGES.meetupWhereRequired });
    if (b.spotId && hasPlace) ctx.addIssue({ code: 'custom', message: DEALS_MESSAGES.meetupWhereBoth });
  });
export type MeetupBody = z.input<typeof meetupBodySchema>;

/** Body of POST /listings/{id}/handoff. */
export const handoffBodySchema = z.object(
  {
    code: z
      .string({ error: DEALS_MESSAGES.handoffCodeInvalid })
      .trim()
      .regex(HANDOFF_CODE_PATTERN, DEALS_MESSAGES.handoffCodeInvalid),
  },
  { error: DEALS_MESSAGES.handoffCodeInvalid },
);

/** MEETUP_SPOTS (a JSON file or a JSON value): `[{id, name, description}]`. */
export const meetupSpotsSchema = z
  .array(
    z.object({
      id: z.string().trim().min(1).max(40),
      name: z.string().trim().min(1).max(DEALS_LIMITS.meetupPlaceMax),
      description: z.string().trim().max(300).default(''),
    }),
  )
  .min(1)
  .max(DEALS_LIMITS.spotsMax)
  .refine((spots) => new Set(spots.map((s) => s.id)).size === spots.length, {
    message: 'Meet-up spot ids must be unique',
  });

/** Neutral, public, well-lit places most campuses have; a campus replaces them with MEETUP_SPOTS. */
export const DEFAULT_MEETUP_SPOTS: readonly MeetupSpot[] = [
  {
    id: 'library-entrance',
    name: 'Main library entrance',
    description: 'Inside the front doors, by the information desk. Staffed and well lit.',
  },
  {
    id: 'student-union',
    name: 'Student union lobby',
    description: 'Ground floor by the main stairs, busy most of the day.',
  },
  {
    id: 'campus-safety',
    name: 'Campus safety office',
    description: 'Outside the campus safety office, covered by cameras, open around the clock.',
  },
];

// ---- answer schemas (OpenAPI; `satisfies` keeps them in step with the interfaces)

export const bundleItemResponse = z.object({
  listingId: z.number().int(),
  listingName: z.string(),
  price: z.number().describe("The listing's asking price now, dollars"),
  thumbnailUrl: z.string().nullable(),
}) satisfies z.ZodType<BundleItem>;

export const dealItemResponse = z.object({
  listingId: z.number().int(),
  listingName: z.string(),
}) satisfies z.ZodType<DealItem>;

export const offerResponse = z.object({
  id: z.number().int(),
  listingId: z.number().int(),
  roomId: z.string(),
  buyerId: z.number().int(),
  byId: z.number().int().describe('Who made it: the buyer, or the seller for a counter-offer'),
  amount: z.number().describe('Dollars'),
  status: z.enum(OFFER_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string().describe('A PENDING offer expires then (48 h after it was made)'),
  claimId: z.number().int().optional().describe("A free item's pickup: the claim that won it"),
  listingIds: z.array(z.number().int()).optional().describe('A bundle offer only: every listing it is for'),
  items: z.array(bundleItemResponse).optional().describe('A bundle offer only: its listings for the card'),
  holdUntil: z.string().nullable().describe('Hold for fall: the pick-up day (YYYY-MM-DD), or null'),
}) satisfies z.ZodType<Offer>;

export const meetupSpotResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
}) satisfies z.ZodType<MeetupSpot>;

export const meetupResponse = z.object({
  id: z.number().int(),
  listingId: z.number().int(),
  roomId: z.string(),
  proposerId: z.number().int(),
  spotId: z.string().nullable().describe('A configured spot, or null for a typed place'),
  place: z.string().describe("The spot's name, or the typed place"),
  startsAt: z.string(),
  status: z.enum(MEETUP_STATUSES),
  createdAt: z.string(),
  reportedUserId: z.number().int().nullable().describe('NO_SHOW: the student reported as absent'),
}) satisfies z.ZodType<Meetup>;

export const dealResponse = z.object({
  id: z.number().int(),
  listingId: z.number().int(),
  listingName: z.string(),
  sellerId: z.number().int(),
  buyerId: z.number().int(),
  price: z.number().describe('Dollars'),
  completedAt: z.string(),
  items: z.array(dealItemResponse).describe('What was sold: the one listing, or every listing of a bundle'),
}) satisfies z.ZodType<Deal>;

export const handoffCodeResponse = z.object({
  code: z.string().describe('4 digits'),
}) satisfies z.ZodType<HandoffCode>;

/** POST /listings/{id}/handoff → the sale it confirmed. */
export const handoffResultResponse = z.object({ deal: dealResponse });
