import { DEALS_MESSAGES, formatDollars, type Listing } from '@campus/contract';
import { openMeetup, type DealCards } from './rules';
import { possessive } from './systemWords';

/**
 * The ONE next step of a deal for the viewer of a chat, pinned under the chat header: what they
 * should do now (answer the offer, propose a meet-up, show or type the hand-off code, rate), or
 * what they are waiting for. Pure, so every state of a deal is tested (nextStep.test.ts).
 */
export type NextStep =
  | { kind: 'answer-offer' | 'wait-offer'; label: string; offerId: number }
  | { kind: 'answer-meetup' | 'wait-meetup'; label: string; meetupId: number }
  | { kind: 'offer' | 'seller-offer' | 'meetup' | 'show-code' | 'enter-code' | 'rate'; label: string };

/** The steps that open a dialog (the others scroll to a card). */
export type DialogStep = Extract<
  NextStep['kind'],
  'offer' | 'seller-offer' | 'meetup' | 'show-code' | 'enter-code' | 'rate'
>;

export interface StepInput {
  listing: Pick<Listing, 'id' | 'status' | 'reservedFor' | 'seller'> & { free?: boolean };
  myId: number;
  peerId: number;
  /** The other student's first name. */
  peer: string;
  cards: DealCards;
  /** A confirmed deal with the peer this viewer has not rated yet. */
  canRate: boolean;
  now?: number;
}

export function nextStep({
  listing,
  myId,
  peerId,
  peer,
  cards,
  canRate,
  now = Date.now(),
}: StepInput): NextStep | null {
  if (canRate) return { kind: 'rate', label: `Rate ${peer}` };
  if (listing.status === 'SOLD') return null;
  const seller = listing.seller.id === myId;
  const buyerId = seller ? peerId : myId;

  // An open offer of this pair on this listing: answering it (or waiting for the answer) comes first.
  if (listing.status === 'AVAILABLE') {
    let pending = null;
    for (const o of cards.offers.values()) {
      if (o.listingId !== listing.id || o.buyerId !== buyerId || o.status !== 'PENDING') continue;
      if (Date.parse(o.expiresAt) <= now) continue;
      if (!pending || o.id > pending.id) pending = o;
    }
    if (pending) {
      const amount = formatDollars(pending.amount);
      return pending.byId === myId
        ? {
            kind: 'wait-offer',
            label: `Waiting for ${peer} to answer your ${amount} offer`,
            offerId: pending.id,
          }
        : {
            kind: 'answer-offer',
            label: `Answer ${possessive(peer)} offer of ${amount}`,
            offerId: pending.id,
          };
    }
  }

  const meetup = openMeetup(cards, listing.id);
  if (meetup?.status === 'PROPOSED') {
    return meetup.proposerId === myId
      ? { kind: 'wait-meetup', label: `Waiting for ${peer} to answer your meet-up`, meetupId: meetup.id }
      : { kind: 'answer-meetup', label: `Answer ${possessive(peer)} meet-up proposal`, meetupId: meetup.id };
  }

  if (listing.status === 'RESERVED') {
    // Reserved for another student: nothing to do in this chat.
    if (listing.reservedFor?.id !== buyerId) return null;
    if (!meetup) return { kind: 'meetup', label: DEALS_MESSAGES.proposeMeetup };
    return seller
      ? { kind: 'enter-code', label: DEALS_MESSAGES.enterHandoff }
      : { kind: 'show-code', label: DEALS_MESSAGES.showHandoff };
  }

  // A free item is claimed on its page, never offered for (features.md §H).
  if (listing.free) return null;
  return seller
    ? { kind: 'seller-offer', label: `Offer it to ${peer}` }
    : { kind: 'offer', label: DEALS_MESSAGES.makeOffer };
}

/** "Can you do $X?": about 10% under the asking price, rounded to a price people say. */
export function suggestedOffer(price: number): number {
  const target = price * 0.9;
  const step = price >= 100 ? 5 : price >= 20 ? 1 : 0.5;
  const rounded = Math.floor(target / step) * step;
  // Never the asking price itself, never nothing.
  if (rounded <= 0 || rounded >= price) return Math.max(0.5, Math.round(target * 100) / 100);
  return Math.round(rounded * 100) / 100;
}

/** The quick replies a buyer can tap in a new chat. */
export function quickReplies(price: number): string[] {
  return [
    'Is it still available?',
    `Can you do ${formatDollars(suggestedOffer(price))}?`,
    'When can we meet?',
  ];
}

/** The price this pair agreed for the listing (their ACCEPTED offer), or null. */
export function agreedPrice(cards: DealCards, listingId: number, buyerId: number): number | null {
  for (const o of cards.offers.values()) {
    if (o.listingId === listingId && o.buyerId === buyerId && o.status === 'ACCEPTED') return o.amount;
  }
  return null;
}
