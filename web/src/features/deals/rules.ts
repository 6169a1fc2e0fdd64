import {
  DEALS_DURATIONS_MS,
  DEALS_MESSAGES,
  type ChatMessage,
  type Listing,
  type ListingStatus,
  type Meetup,
  type Offer,
  type ReservedFor,
  readPrice,
} from '@campus/contract';

/**
 * The pure rules of the deal cards in the chat: what state each card is in, which buttons a viewer
 * may press, and the mirrored input checks. The server stays the authority (it answers 403/409 with
 * a message we show); these only keep students from pressing buttons that can only fail.
 */

export interface DealCards {
  offers: ReadonlyMap<number, Offer>;
  meetups: ReadonlyMap<number, Meetup>;
}

/**
 * The current state of every card in a thread. Every state change posts a system message that
 * embeds the object as it now is, so walking the messages in id order and keeping the last copy of
 * each object gives the newest state, both for history (already current) and live updates.
 */
export function reduceCards(messages: readonly ChatMessage[]): DealCards {
  const offers = new Map<number, Offer>();
  const meetups = new Map<number, Meetup>();
  const ordered = [...messages].sort((a, b) => a.id - b.id);
  for (const m of ordered) {
    if (m.offer) offers.set(m.offer.id, m.offer);
    if (m.meetup) meetups.set(m.meetup.id, m.meetup);
  }
  return { offers, meetups };
}

export interface OfferActions {
  accept: boolean;
  decline: boolean;
  counter: boolean;
  withdraw: boolean;
}

const NO_OFFER_ACTIONS: OfferActions = { accept: false, decline: false, counter: false, withdraw: false };

/**
 * features.md §A: the side that did not make a PENDING offer may accept, decline or counter it;
 * its author may withdraw it. A listing already reserved or sold takes no acceptance or counter.
 */
export function offerActions(
  offer: Offer,
  viewerId: number | null,
  listingStatus: ListingStatus | null,
  now: number = Date.now(),
): OfferActions {
  if (viewerId === null || offer.status !== 'PENDING') return NO_OFFER_ACTIONS;
  // An expired offer waits for its timer to mark it; nothing can be done with it meanwhile.
  if (Date.parse(offer.expiresAt) <= now) return NO_OFFER_ACTIONS;
  if (!inRoom(offer.roomId, viewerId)) return NO_OFFER_ACTIONS;
  if (offer.byId === viewerId) return { ...NO_OFFER_ACTIONS, withdraw: true };
  const open = listingStatus === null || listingStatus === 'AVAILABLE';
  return { accept: open, decline: true, counter: open, withdraw: false };
}

/** Rooms are "low:high" user ids: the two students of the offer or meet-up. */
function inRoom(roomId: string, viewerId: number): boolean {
  const [a, b] = roomId.split(':').map(Number);
  return viewerId === a || viewerId === b;
}

export interface MeetupActions {
  accept: boolean;
  decline: boolean;
  cancel: boolean;
  calendar: boolean;
  noShow: boolean;
}

/**
 * The student who did not propose a PROPOSED meet-up accepts or declines it; either cancels it
 * while it is open; a CONFIRMED one may be reported as a no-show from 15 minutes until 48 hours
 * after its time.
 */
export function meetupActions(
  meetup: Meetup,
  viewerId: number | null,
  now: number = Date.now(),
): MeetupActions {
  const none = { accept: false, decline: false, cancel: false, calendar: false, noShow: false };
  if (viewerId === null) return none;
  if (!inRoom(meetup.roomId, viewerId)) return none;
  const other = meetup.proposerId !== viewerId;
  if (meetup.status === 'PROPOSED') {
    return { accept: other, decline: other, cancel: true, calendar: true, noShow: false };
  }
  if (meetup.status === 'CONFIRMED') {
    const since = now - Date.parse(meetup.startsAt);
    const noShow = since >= DEALS_DURATIONS_MS.noShowAfter && since <= DEALS_DURATIONS_MS.noShowWindow;
    return { accept: false, decline: false, cancel: true, calendar: true, noShow };
  }
  return none;
}

/**
 * A typed amount, read as the contract's amountSchema reads a string (with its `readPrice`, not the
 * schema: this module is evaluated by every page with a deal on it, and the schema would make Zod
 * part of a listing page's first evaluation); a leading "$" and spaces are allowed.
 */
export function checkAmount(input: string): { amount: string } | { error: string } {
  const text = input.trim().replace(/^\$\s*/, '');
  if (text === '') return { error: DEALS_MESSAGES.amountRequired };
  if (!readPrice(text).ok) return { error: DEALS_MESSAGES.amountInvalid };
  return { amount: text };
}

/** A chosen meet-up time: 15 minutes to 30 days ahead (the server checks again with its clock). */
export function checkMeetupTime(
  value: string,
  now: number = Date.now(),
): { startsAt: string } | { error: string } {
  const time = value ? new Date(value).getTime() : Number.NaN;
  if (Number.isNaN(time)) return { error: DEALS_MESSAGES.meetupStartsAtInvalid };
  if (time - now < DEALS_DURATIONS_MS.meetupMinLead) return { error: DEALS_MESSAGES.meetupTooSoon };
  if (time - now > DEALS_DURATIONS_MS.meetupMaxAhead) return { error: DEALS_MESSAGES.meetupTooFar };
  return { startsAt: new Date(time).toISOString() };
}

/** A Date as the value of an <input type="datetime-local"> (local time, minutes). */
export function toLocalInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Meet-ups are suggested in daytime: starting from 9:00 to 20:00, so they end by about 21:00. */
export const MEETUP_DAY = { firstHour: 9, lastHour: 20, fallbackHour: 12 } as const;

/**
 * The suggested meet-up time, in the student's local time: the first full hour at least an hour
 * from now (time to get there), when that falls in daytime (9:00–20:00 starts); before 9:00, noon
 * that day; after 20:00, noon the next day.
 */
export function defaultMeetupTime(now: Date = new Date()): Date {
  const d = new Date(now.getTime() + 60 * 60_000);
  if (d.getMinutes() !== 0 || d.getSeconds() !== 0 || d.getMilliseconds() !== 0) {
    d.setHours(d.getHours() + 1, 0, 0, 0);
  }
  // The hour after the start hour stepped past midnight when now was late: that is the night too.
  if (d.getHours() < MEETUP_DAY.firstHour) {
    d.setHours(MEETUP_DAY.fallbackHour, 0, 0, 0);
  } else if (d.getHours() > MEETUP_DAY.lastHour) {
    d.setDate(d.getDate() + 1);
    d.setHours(MEETUP_DAY.fallbackHour, 0, 0, 0);
  }
  return d;
}

/** The open (PROPOSED or CONFIRMED) meet-up of a listing in a thread, the newest first. */
export function openMeetup(cards: DealCards, listingId: number | null): Meetup | null {
  let found: Meetup | null = null;
  for (const m of cards.meetups.values()) {
    if (m.listingId !== listingId) continue;
    if (m.status !== 'PROPOSED' && m.status !== 'CONFIRMED') continue;
    if (!found || m.id > found.id) found = m;
  }
  return found;
}

/**
 * "Mark as Sold" on a reserved listing is not a one-tap sale (features.md §A): the reserved buyer
 * should hand over their code, which records the deal and opens reviews. Returns that buyer when
 * the button must ask first, null when a plain toggle is fine.
 */
export function reservedBuyerToAsk(
  listing: Pick<Listing, 'status' | 'isSold' | 'reservedFor'>,
): ReservedFor | null {
  if (listing.isSold || listing.status !== 'RESERVED') return null;
  return listing.reservedFor ?? null;
}
