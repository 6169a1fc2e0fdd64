import { z } from './zod.js';

/**
 * Section H of features.md: free items and claims. A free listing takes claims during its claim
 * window; then the giver chooses one or draws; the winner gets a 48-hour pickup (a reservation at
 * price 0, deals.ts) and the rest wait in the drawn order.
 */

export const CLAIM_STATUSES = ['OPEN', 'CHOSEN', 'PASSED', 'WITHDRAWN', 'LOST', 'DONE'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** How a giveaway's order was decided: the giver chose, the giver drew, or the app drew on its own. */
export const CLAIM_DRAW_METHODS = ['CHOSEN', 'DRAWN', 'AUTO_DRAWN'] as const;
export type ClaimDrawMethod = (typeof CLAIM_DRAW_METHODS)[number];

export const CLAIMS_LIMITS = {
  noteMax: 280,
  claimWindowHoursMin: 1,
  claimWindowHoursMax: 72,
  claimWindowHoursDefault: 12,
  /** Without a choice this long after the window, the draw runs on its own. */
  autoDrawAfterHours: 24,
  /** The winner's pickup lapses this long after it starts when no meet-up is CONFIRMED. */
  pickupHours: 48,
  /** OPEN claims one student holds on giveaways still collecting or waiting for a decision. */
  openClaimsMax: 3,
  /** Free items one student may win in `winWindowDays`. */
  winsMax: 5,
  winWindowDays: 7,
} as const;

const HOUR = 3_600_000;
export const CLAIMS_DURATIONS_MS = {
  autoDrawAfter: CLAIMS_LIMITS.autoDrawAfterHours * HOUR,
  pickup: CLAIMS_LIMITS.pickupHours * HOUR,
  winWindow: CLAIMS_LIMITS.winWindowDays * 24 * HOUR,
} as const;

export const CLAIMS_MESSAGES = {
  claimIdInvalid: 'The claim id must be a positive whole number',
  claimNotFound: 'This claim does not exist or was withdrawn',
  noteTooLong: `Keep your note to ${CLAIMS_LIMITS.noteMax} characters`,
  notFree: 'This listing is not free: make an offer instead of claiming it',
  ownListing: 'You cannot claim your own free item',
  alreadyClaimed: 'You already claimed this item: one claim per student per item',
  windowClosed: 'Claims for this item have closed',
  notAvailable: 'This item is no longer available',
  tooManyOpen: `You already have ${CLAIMS_LIMITS.openClaimsMax} open claims: withdraw one or wait for a draw before claiming more`,
  winLimit: `You have received ${CLAIMS_LIMITS.winsMax} free items in the last ${CLAIMS_LIMITS.winWindowDays} days: leave some for others and claim again later`,
  noClaimToWithdraw: 'You have no open claim on this item',
  notGiver: 'Only the giver can choose or draw',
  windowOpen: (closesAt: string) =>
    `Claims are still collecting until ${closesAt}: choose or draw after that`,
  alreadyDecided: 'The winner of this item has already been chosen',
  noClaims: 'Nobody has claimed this item yet',
  claimNotOpen: 'This claim is no longer open',
  chosenOverLimit: `This student has received ${CLAIMS_LIMITS.winsMax} free items this week: choose someone else or draw`,
  windowHoursInvalid: `The claim window is ${CLAIMS_LIMITS.claimWindowHoursMin} to ${CLAIMS_LIMITS.claimWindowHoursMax} whole hours`,
  freeWithPrice: 'A free item has no price: leave the price empty or make it not free',
  freeStaysFree: 'A free item stays free: delete it and post it again to sell it',
  windowOnlyFree: 'Only a free item has a claim window',
  offerOnFree: 'This item is free: claim it instead of making an offer',
} as const;

/** "Sat, Nov 28, 6:10 PM" in the campus's time zone: when a pickup must happen by. */
export function pickupTime(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(epochMs);
}

/** System lines and notices of claims (chat and the notification centre). */
export const CLAIM_EVENTS = {
  pickupStarted: (claimant: string, item: string, by: string) =>
    `${claimant} gets “${item}” for free. Pick it up by ${by}: agree on a meet-up here, and show your hand-off code at the pickup.`,
  pickupLapsed: () => 'The pickup lapsed without a hand-off: the item goes to the next student in line.',
  pickupMissed: () => 'The pickup was missed: the item goes to the next student in line.',
  pickupGivenUp: (claimant: string) =>
    `${claimant} gave up the pickup: the item goes to the next student in line.`,
  readyTitle: (item: string) => `Claims for “${item}” are in`,
  readyBody: (count: number) =>
    `${count} ${count === 1 ? 'student wants' : 'students want'} it: choose one or draw. Without a choice the app draws in ${CLAIMS_LIMITS.autoDrawAfterHours} hours.`,
  wonTitle: (item: string) => `You got “${item}”!`,
  wonBody: (by: string) => `It is reserved for you until ${by}. Agree on a pickup in the chat.`,
  lostTitle: (item: string) => `Someone else got “${item}” this time`,
  lostBody: (others: number) =>
    others === 0
      ? 'Keep an eye out: new free items are posted all the time.'
      : `${others} other free ${others === 1 ? 'item is' : 'items are'} nearby.`,
} as const;

export interface Claim {
  id: number;
  listingId: number;
  claimantId: number;
  note: string;
  status: ClaimStatus;
  createdAt: string;
  /** The giver's view: who claimed. */
  claimant?: { id: number; firstName: string; lastName: string };
  /** Place in the drawn order (1 = first); null before the decision. */
  position: number | null;
}

/** One decision of a giveaway, kept for audit: who decided, among which claims, the order drawn. */
export interface ClaimDraw {
  id: number;
  listingId: number;
  method: ClaimDrawMethod;
  /** The giver, or null when the app drew on its own. */
  byId: number | null;
  /** The OPEN claims the decision was among. */
  poolClaimIds: number[];
  /** Every claim of the pool in line order; the first eligible one won. */
  orderClaimIds: number[];
  /** Claims passed over because their student had reached the win limit. */
  skippedClaimIds: number[];
  winnerClaimId: number | null;
  at: string;
}

export const claimBodySchema = z.object({
  note: z
    .string({ error: CLAIMS_MESSAGES.noteTooLong })
    .trim()
    .max(CLAIMS_LIMITS.noteMax, CLAIMS_MESSAGES.noteTooLong)
    .optional()
    .default(''),
});

/** `claimWindowHours` as the create form sends it (a string) or JSON (a number). */
export const claimWindowHoursSchema = z.coerce
  .number({ error: CLAIMS_MESSAGES.windowHoursInvalid })
  .int(CLAIMS_MESSAGES.windowHoursInvalid)
  .min(CLAIMS_LIMITS.claimWindowHoursMin, CLAIMS_MESSAGES.windowHoursInvalid)
  .max(CLAIMS_LIMITS.claimWindowHoursMax, CLAIMS_MESSAGES.windowHoursInvalid);

export const claimResponse = z.object({
  id: z.number().int(),
  listingId: z.number().int(),
  claimantId: z.number().int(),
  note: z.string(),
  status: z.enum(CLAIM_STATUSES),
  createdAt: z.string(),
  claimant: z
    .object({ id: z.number().int(), firstName: z.string(), lastName: z.string() })
    .optional()
    .describe("The giver's view only"),
  position: z.number().int().nullable().describe('Place in the drawn order; null before the decision'),
}) satisfies z.ZodType<Claim>;

export const claimDrawResponse = z.object({
  id: z.number().int(),
  listingId: z.number().int(),
  method: z.enum(CLAIM_DRAW_METHODS),
  byId: z.number().int().nullable(),
  poolClaimIds: z.array(z.number().int()),
  orderClaimIds: z.array(z.number().int()),
  skippedClaimIds: z.array(z.number().int()),
  winnerClaimId: z.number().int().nullable(),
  at: z.string(),
}) satisfies z.ZodType<ClaimDraw>;
