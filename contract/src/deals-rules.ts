import { formatDollars, PRICE_LIMITS } from './money.js';

/**
 * The Zod-free half of section A of features.md (deals): listing and offer statuses, limits and
 * durations, every message, the hand-off code's pattern and the lines that tell a deal's story in
 * the chat. Pages that only show a deal read these, and a module holding a schema would bring Zod
 * into their chunk (deals.ts has the types and schemas).
 */

export const LISTING_STATUSES = ['AVAILABLE', 'RESERVED', 'SOLD'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const OFFER_STATUSES = [
  'PENDING',
  'ACCEPTED',
  'DECLINED',
  'COUNTERED',
  'WITHDRAWN',
  'EXPIRED',
  'CANCELLED',
] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const MEETUP_STATUSES = ['PROPOSED', 'CONFIRMED', 'DECLINED', 'CANCELLED', 'DONE', 'NO_SHOW'] as const;
export type MeetupStatus = (typeof MEETUP_STATUSES)[number];
/** Statuses that count as "open": one per room and listing. */
export const OPEN_MEETUP_STATUSES: readonly MeetupStatus[] = ['PROPOSED', 'CONFIRMED'];

export const DEALS_LIMITS = {
  offerMaxDollars: PRICE_LIMITS.maxDollars,
  /** A PENDING offer expires this long after it was made. */
  offerExpiryHours: 48,
  /** A reservation lapses this long after acceptance when no meet-up is CONFIRMED. */
  reservationLapseHours: 72,
  /** ...or this long after a CONFIRMED meet-up's time when no deal was confirmed. */
  reservationAfterMeetupHours: 48,
  meetupMinLeadMinutes: 15,
  meetupMaxAheadDays: 30,
  /** Calendar events last this long (the .ics DTEND). */
  meetupDurationMinutes: 30,
  meetupPlaceMax: 120,
  /** A no-show may be reported from this long after the meet-up's time... */
  noShowAfterMinutes: 15,
  /** ...until this long after it. */
  noShowWindowHours: 48,
  handoffCodeDigits: 4,
  handoffMaxFailures: 5,
  /** Offers (new or counter) one student may make on one listing with one buyer in a minute… */
  offersPerMinute: 3,
  /** …and in 24 hours. */
  offersPerDay: 20,
  spotsMax: 50,
} as const;

const HOUR = 3_600_000;
const MINUTE = 60_000;
export const DEALS_DURATIONS_MS = {
  offerExpiry: DEALS_LIMITS.offerExpiryHours * HOUR,
  reservationLapse: DEALS_LIMITS.reservationLapseHours * HOUR,
  reservationAfterMeetup: DEALS_LIMITS.reservationAfterMeetupHours * HOUR,
  meetupMinLead: DEALS_LIMITS.meetupMinLeadMinutes * MINUTE,
  meetupMaxAhead: DEALS_LIMITS.meetupMaxAheadDays * 24 * HOUR,
  meetupDuration: DEALS_LIMITS.meetupDurationMinutes * MINUTE,
  noShowAfter: DEALS_LIMITS.noShowAfterMinutes * MINUTE,
  noShowWindow: DEALS_LIMITS.noShowWindowHours * HOUR,
} as const;

export const DEALS_MESSAGES = {
  // ids
  listingNotFound: 'This listing does not exist or was deleted',
  listingIdInvalid: 'The listing id must be a positive whole number',
  offerIdInvalid: 'The offer id must be a positive whole number',
  meetupIdInvalid: 'The meet-up id must be a positive whole number',
  // offers
  amountRequired: 'Enter an amount in dollars, like 40 or 39.50',
  amountInvalid: 'The amount must be more than $0 and at most $100,000, with at most 2 decimals',
  offerOwnListing: 'You cannot make an offer on your own listing',
  // A seller offers their listing in a chat (roomId): the price they agreed with that student.
  offerNoRoom: 'You can offer your listing only to a student who has chatted with you',
  offerRoomNotYours: 'That chat is not between you and the seller of this listing',
  offerListingNotAvailable: 'This listing is reserved or sold, so it takes no offers right now',
  offerNotFound: 'This offer does not exist',
  offerNotYours: 'Only the buyer and the seller of this offer can see or answer it',
  offerNotPending: 'This offer was already answered, withdrawn or expired',
  offerOwnAnswer: 'You made this offer: wait for the other side to answer it, or withdraw it',
  offerWithdrawNotAuthor: 'Only the student who made this offer can withdraw it',
  offerCounterSame: 'A counter-offer must be a different amount',
  offersNotYours: 'Only the seller and buyers of this listing can see its offers',
  offerTooFast: `You can make at most ${DEALS_LIMITS.offersPerMinute} offers a minute on a listing. Wait a minute, or say more in the chat.`,
  offerDailyLimit: `You can make at most ${DEALS_LIMITS.offersPerDay} offers a day on a listing. Try again tomorrow, or talk it over in the chat.`,
  releaseNotSeller: 'Only the seller can release a reservation',
  releaseNotReserved: 'This listing is not reserved',
  // meet-ups
  meetupBodyInvalid: 'Send {listingId, spotId or place, startsAt}',
  meetupWhereRequired: 'Choose a meet-up spot or type a place',
  meetupWhereBoth: 'Choose either a meet-up spot or a place, not both',
  meetupSpotUnknown: 'That meet-up spot does not exist on this campus',
  meetupPlaceTooLong: 'The place can be at most 120 characters',
  meetupStartsAtInvalid: 'Give the meet-up time as an ISO date and time, like 2026-05-01T14:30:00Z',
  meetupTooSoon: 'Pick a time at least 15 minutes from now',
  meetupTooFar: 'Pick a time at most 30 days ahead',
  meetupRoomRequired: 'Say which chat this meet-up is for (roomId): the listing is not reserved',
  meetupNoRoom:
    'Only the seller and a student who chatted or made an offer about this listing can propose a meet-up',
  meetupListingSold: 'This listing is sold: there is nothing left to meet for',
  meetupOpenExists: 'There is already an open meet-up for this listing in this chat. Cancel it first.',
  meetupNotFound: 'This meet-up does not exist',
  meetupNotYours: 'Only the two students of this meet-up can see or answer it',
  meetupOwnAnswer: 'You proposed this meet-up: wait for the other student to answer it, or cancel it',
  meetupNotProposed: 'This meet-up was already answered or cancelled',
  meetupNotOpen: 'This meet-up is no longer open',
  noShowNotConfirmed: 'Only a confirmed meet-up can be reported as a no-show',
  noShowTooEarly: 'You can report a no-show from 15 minutes after the meet-up time',
  noShowTooLate: 'No-shows can be reported only within 48 hours of the meet-up time',
  noShowDealDone: 'This deal was confirmed, so nobody was absent',
  // hand-off
  handoffCodeInvalid: 'The hand-off code is 4 digits',
  handoffNotReserved: 'This listing is not reserved, so there is no hand-off code',
  handoffNotBuyer: 'Only the reserved buyer can see the hand-off code',
  handoffNotSeller: 'Only the seller types the hand-off code',
  handoffWrong: (triesLeft: number) =>
    `That code is not right. Ask the buyer to read it again (${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left).`,
  handoffLocked:
    'Hand-off is locked after 5 wrong codes. Release the reservation; the buyer can then make a new offer.',
  // web
  makeOffer: 'Make an offer',
  proposeMeetup: 'Propose a meet-up',
  enterHandoff: 'Enter hand-off code',
  showHandoff: 'Show hand-off code',
  reserved: 'Reserved',
  releaseReservation: 'Release reservation',
  releaseConfirm: 'Release the reservation? The listing becomes available to everyone again.',
  soldReservedTitle: 'This listing is reserved',
  soldReservedHint: (buyer: string) =>
    `Sold to ${buyer}? Enter ${buyer}'s hand-off code: it records the deal and lets you both leave a review.`,
  soldWithoutDeal: 'Mark as sold without a deal',
  soldWithoutDealWarning: (buyer: string) =>
    `No deal will be recorded and ${buyer} won't be able to review. The reservation ends and ${buyer}'s hand-off code stops working.`,
  soldDealRecorded:
    'This listing was sold through a confirmed hand-off, so it cannot be put back on sale. Post it again as a new listing if you have it back.',
  handoffCodeHint: 'Show this to the seller when you meet. Only give it once you have the item.',
  handoffSellerHint: 'Ask the buyer for their 4-digit code once they have the item.',
  handoffNoMeetup: 'No meet-up confirmed yet: agree on a time and place in the chat.',
  // The code offline (at the meet-up, where signal is worst): saved on the phone once fetched.
  handoffSavedOffline: 'You are offline. This code is saved on this device, so it works without signal.',
  handoffOffline:
    'You are offline, and this code is not saved on this device yet. It shows here as soon as you are back online.',
  handoffSavedTitle: (listing: string) => `Your hand-off code for ${listing}`,
  listingDeleted: 'This listing was deleted. You can still message each other here.',
  rate: (firstName: string) => `Rate ${firstName}`,
  ratePrompt: (firstName: string) =>
    `The hand-off is confirmed. How was meeting ${firstName}? Reviews stay hidden until you both rate.`,
} as const;

/** A hand-off code as typed, trimmed: what handoffBodySchema accepts (Zod-free, for the browser). */
export const HANDOFF_CODE_PATTERN = /^\d{4}$/;

/**
 * The text of the system messages that tell the story of a deal in the chat. `actor` is the first
 * name of the student who acted. Clients show the text as it is; the embedded object drives the card.
 */
export const DEAL_EVENTS = {
  offerMade: (actor: string, amount: number) => `${actor} offered ${formatDollars(amount)}`,
  offerCountered: (actor: string, amount: number) => `${actor} countered with ${formatDollars(amount)}`,
  offerAccepted: (actor: string, amount: number) =>
    `${actor} accepted the offer of ${formatDollars(amount)}. The listing is reserved.`,
  offerDeclined: (actor: string, amount: number) => `${actor} declined the offer of ${formatDollars(amount)}`,
  offerWithdrawn: (actor: string, amount: number) =>
    `${actor} withdrew the offer of ${formatDollars(amount)}`,
  offerExpired: (amount: number) => `The offer of ${formatDollars(amount)} expired`,
  offerDeclinedReserved: (amount: number) =>
    `The offer of ${formatDollars(amount)} was declined: the listing was reserved for someone else`,
  reservationReleased: (actor: string) =>
    `${actor} released the reservation. The listing is available again.`,
  reservationLapsed: () => 'The reservation lapsed without a hand-off. The listing is available again.',
  reservationSoldElsewhere: (actor: string) =>
    `${actor} marked the listing as sold without a hand-off. The reservation has ended and no deal was recorded.`,
  meetupProposed: (actor: string, place: string) => `${actor} proposed meeting at ${place}`,
  meetupAccepted: (actor: string, place: string) => `${actor} confirmed the meet-up at ${place}`,
  meetupDeclined: (actor: string) => `${actor} declined the meet-up`,
  meetupCancelled: (actor: string) => `${actor} cancelled the meet-up`,
  meetupNoShow: (actor: string, absent: string) => `${actor} reported that ${absent} did not show up`,
  handoffDone: (listingName: string, amount: number) =>
    `Hand-off confirmed: ${listingName} sold for ${formatDollars(amount)}`,
  handoffLocked: () => 'Hand-off is locked after 5 wrong codes.',
  listingRemoved: () =>
    'A moderator removed this listing: its offers and meet-ups are cancelled. You can still message each other here.',
} as const;
