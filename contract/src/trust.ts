import { z } from './zod.js';
import { listingResponse } from './api.js';
import { dealItemResponse, type Deal } from './deals.js';
import type { Listing } from './listings.js';
import type { ImageVariants } from './media.js';

/**
 * Trust (features.md §A "Reviews", "Profiles", "No-shows"): blind two-way reviews after a
 * confirmed deal, public profiles with rating, reliability and median reply time, bio and avatar.
 */

export const REVIEW_TAGS = [
  'ON_TIME',
  'AS_DESCRIBED',
  'FRIENDLY',
  'GOOD_COMMUNICATION',
  'FAIR_PRICE',
] as const;
export type ReviewTag = (typeof REVIEW_TAGS)[number];
export const REVIEW_TAG_LABELS: Record<ReviewTag, string> = {
  ON_TIME: 'On time',
  AS_DESCRIBED: 'As described',
  FRIENDLY: 'Friendly',
  GOOD_COMMUNICATION: 'Good communication',
  FAIR_PRICE: 'Fair price',
};
export const isReviewTag = (v: string): v is ReviewTag => (REVIEW_TAGS as readonly string[]).includes(v);

export const TRUST_LIMITS = {
  starsMin: 1,
  starsMax: 5,
  reviewTextMax: 500,
  bioMax: 280,
  /** Each party may review within this many days of the deal; reviews are revealed by then at the latest. */
  reviewWindowDays: 14,
  /** Reliability is shown once deals + no-shows reach this (features.md §A). */
  reliabilityMinEvents: 3,
  /** Median reply time looks back this far. */
  replyWindowDays: 90,
  /** Listings on a profile (the first page). */
  profileListings: 20,
} as const;

export const DAY_MS = 24 * 60 * 60 * 1000;
export const REVIEW_WINDOW_MS = TRUST_LIMITS.reviewWindowDays * DAY_MS;

export const TRUST_MESSAGES = {
  starsInvalid: 'Choose 1 to 5 stars',
  reviewTextTooLong: `The review can be at most ${TRUST_LIMITS.reviewTextMax} characters`,
  reviewTextInvalid: 'The review text must be text',
  tagsInvalid: 'Tags must be some of: on time, as described, friendly, good communication, fair price',
  reviewUnknownField: 'A review has only stars, text and tags',
  dealIdInvalid: 'The deal id must be a positive whole number',
  dealNotFound: 'This deal does not exist',
  notYourDeal: 'Only the buyer and the seller of this deal can review it',
  alreadyReviewed: 'You already reviewed this deal. Reviews cannot be changed.',
  reviewWindowOver: `Reviews close ${TRUST_LIMITS.reviewWindowDays} days after the deal; this one is closed`,
  reviewSaved: 'Thanks! Your review stays hidden until the other side reviews too, or the 14 days pass.',
  userIdInvalid: 'The user id must be a positive whole number',
  userNotFound: 'This student does not exist',
  bioTooLong: `Your bio can be at most ${TRUST_LIMITS.bioMax} characters`,
  bioInvalid: 'Send bio as text (an empty text clears it)',
  profileUnknownField: 'Only bio can be changed here',
  avatarRequired: 'Attach a JPG/JPEG photo in the `image` field',
  avatarOneImage: 'Send one photo',
  // Web
  noReviews: 'Reviews appear after a deal, once both students have rated each other or 14 days have passed.',
  noDeals: 'When you hand over or pick up an item with a hand-off code, it shows here.',
  noListings: 'Nothing for sale right now',
  reviewHiddenUntil: 'Hidden until they review you too, or the review period ends.',
  reliabilityPending: 'Shown after 3 meet-ups',
} as const;

/** A review body (POST /deals/{id}/review). Unknown keys are refused: a review cannot carry more. */
export const reviewSchema = z.strictObject(
  {
    stars: z
      .number({ error: TRUST_MESSAGES.starsInvalid })
      .int(TRUST_MESSAGES.starsInvalid)
      .min(TRUST_LIMITS.starsMin, TRUST_MESSAGES.starsInvalid)
      .max(TRUST_LIMITS.starsMax, TRUST_MESSAGES.starsInvalid),
    text: z
      .string({ error: TRUST_MESSAGES.reviewTextInvalid })
      .trim()
      .max(TRUST_LIMITS.reviewTextMax, TRUST_MESSAGES.reviewTextTooLong)
      .optional()
      .default(''),
    tags: z
      .array(z.enum(REVIEW_TAGS, { error: TRUST_MESSAGES.tagsInvalid }), {
        error: TRUST_MESSAGES.tagsInvalid,
      })
      .max(REVIEW_TAGS.length, TRUST_MESSAGES.tagsInvalid)
      .optional()
      .default([])
      // The same tag twice counts once.
      .transform((tags) => REVIEW_TAGS.filter((t) => tags.includes(t))),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? TRUST_MESSAGES.reviewUnknownField : undefined) },
);
export type ReviewPayload = z.input<typeof reviewSchema>;

/** PATCH /users/me. */
export const profilePatchSchema = z.strictObject(
  {
    bio: z
      .string({ error: TRUST_MESSAGES.bioInvalid })
      .trim()
      .max(TRUST_LIMITS.bioMax, TRUST_MESSAGES.bioTooLong),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? TRUST_MESSAGES.profileUnknownField : undefined) },
);
export type ProfilePatch = z.input<typeof profilePatchSchema>;

export interface UserRef {
  id: number;
  firstName: string;
  lastName: string;
}

export interface Review {
  id: number;
  dealId: number;
  listingName: string;
  author: UserRef;
  /** The reviewed student. */
  subjectId: number;
  stars: number;
  text: string;
  tags: ReviewTag[];
  createdAt: string;
  /** When it became visible to others; null while blind. */
  revealedAt: string | null;
}

export interface Profile {
  id: number;
  firstName: string;
  lastName: string;
  avatarUrl: string | null;
  avatarVariants: ImageVariants | null;
  bio: string;
  memberSince: string;
  verifiedStudent: true;
  ratingAverage: number | null;
  ratingCount: number;
  dealsCount: number;
  reliability: number | null;
  medianReplyMinutes: number | null;
  listings: Listing[];
}

/** GET /deals item: the caller's side of a deal and where its reviews stand. */
export interface DealWithReviews extends Deal {
  role: 'SELLER' | 'BUYER';
  counterpart: UserRef;
  myReview: Review | null;
  /** The counterpart's review of the caller, once revealed. */
  theirReview: Review | null;
  canReview: boolean;
  /** Last moment a review can be written (and the latest reveal). */
  reviewDeadline: string;
  /** Both reviews are visible (both in, or the window passed). */
  revealed: boolean;
}

// ---- OpenAPI descriptions (the answers above as zod)

const userRefResponse = z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() });

export const reviewResponse = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  listingName: z.string(),
  author: userRefResponse,
  subjectId: z.number().int(),
  stars: z.number().int().min(1).max(5),
  text: z.string(),
  tags: z.array(z.enum(REVIEW_TAGS)),
  createdAt: z.string(),
  revealedAt: z.string().nullable(),
});

const variantsResponse = z.record(z.string(), z.unknown()).nullable();

export const profileResponse = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  avatarUrl: z.string().nullable(),
  avatarVariants: variantsResponse,
  bio: z.string(),
  memberSince: z.string(),
  verifiedStudent: z.literal(true),
  ratingAverage: z
    .number()
    .nullable()
    .describe('One review per reviewer (their latest), revealed reviews only'),
  ratingCount: z.number().int(),
  dealsCount: z.number().int(),
  reliability: z
    .number()
    .nullable()
    .describe('deals ÷ (deals + no-shows against the student); null below 3 of them together'),
  medianReplyMinutes: z.number().int().nullable(),
  listings: z.array(listingResponse).describe('Available and reserved, newest first (first page)'),
});

export const dealWithReviewsResponse = z.object({
  id: z.number().int(),
  listingId: z.number().int(),
  listingName: z.string(),
  sellerId: z.number().int(),
  buyerId: z.number().int(),
  price: z.number(),
  completedAt: z.string(),
  items: z.array(dealItemResponse),
  role: z.enum(['SELLER', 'BUYER']),
  counterpart: userRefResponse,
  myReview: reviewResponse.nullable(),
  theirReview: reviewResponse.nullable(),
  canReview: z.boolean(),
  reviewDeadline: z.string(),
  revealed: z.boolean(),
});

export const profilePatchDoc = z.object({ bio: z.string().max(TRUST_LIMITS.bioMax) });
export const reviewDoc = z.object({
  stars: z.number().int().min(1).max(5),
  text: z.string().max(TRUST_LIMITS.reviewTextMax).optional(),
  tags: z.array(z.enum(REVIEW_TAGS)).optional(),
});
