import { formatDollars, type ListingStatus, type Meetup, type Offer } from '@campus/contract';
import { liveBasis, zoneOption, type TimeBasis } from '../../ui/timeBasis';

/**
 * What a card says, from the viewer's side: who made it, its state in words, and what happens
 * next. `peer` is the other student's first name.
 */

export type Tone = 'open' | 'good' | 'ended';

export interface CardWords {
  title: string;
  state: string;
  next: string;
  tone: Tone;
}

export function offerWords(
  offer: Offer,
  viewerId: number | null,
  peer: string,
  listingStatus: ListingStatus | null,
  /** It answers the other side's offer (dealMessage.tsx `answersOffer`); by default, a seller's offer. */
  isCounter: boolean = offer.byId !== offer.buyerId,
): CardWords {
  const mine = offer.byId === viewerId;
  const buyer = offer.buyerId === viewerId;
  const amount = formatDollars(offer.amount);
  // A seller's offer that answers nothing: they offer the listing at a price they agreed in chat.
  const sellerOffer = !isCounter && offer.byId !== offer.buyerId;
  const title = isCounter
    ? `${mine ? 'You' : peer} countered with ${amount}`
    : sellerOffer
      ? mine
        ? `You offered it for ${amount}`
        : `${peer} offered it to you for ${amount}`
      : `${mine ? 'You' : peer} offered ${amount}`;
  switch (offer.status) {
    case 'PENDING':
      return mine
        ? {
            title,
            state: `Waiting for ${peer} to answer`,
            next: `${peer} can accept, decline or counter. You can withdraw it until then.`,
            tone: 'open',
          }
        : {
            title,
            state: 'Waiting for your answer',
            next: buyer
              ? 'Accept to reserve the listing for you at this price, or decline or counter.'
              : `Accept to reserve the listing for ${peer} at this price, or decline or counter.`,
            tone: 'open',
          };
    case 'ACCEPTED':
      if (listingStatus === 'SOLD') {
        return {
          title,
          state: 'Accepted · sold',
          next: 'The hand-off was confirmed. Deal done.',
          tone: 'good',
        };
      }
      return {
        title,
        state: 'Accepted · reserved',
        next: buyer
          ? 'The listing is reserved for you. Agree on a meet-up, then show your hand-off code there.'
          : `The listing is reserved for ${peer}. Meet up and type ${peer}'s hand-off code to confirm the sale.`,
        tone: 'good',
      };
    case 'DECLINED':
      return {
        title,
        state: 'Declined',
        next: buyer ? 'You can make a new offer.' : 'Nothing more to do.',
        tone: 'ended',
      };
    case 'COUNTERED':
      return { title, state: 'Countered', next: 'The counter-offer is below.', tone: 'ended' };
    case 'WITHDRAWN':
      return { title, state: 'Withdrawn', next: 'This offer no longer stands.', tone: 'ended' };
    case 'EXPIRED':
      return {
        title,
        state: 'Expired',
        next: 'Offers and reservations lapse when nobody acts in time.',
        tone: 'ended',
      };
    case 'CANCELLED':
      return { title, state: 'Cancelled', next: 'The reservation was released.', tone: 'ended' };
  }
}

/** "Tue, Nov 24, 3:00 PM" in the student's locale. */
export function formatMeetupTime(iso: string, basis: TimeBasis = liveBasis()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(basis.locale, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...zoneOption(basis),
  });
}

export function meetupWords(meetup: Meetup, viewerId: number | null, peer: string): CardWords {
  const mine = meetup.proposerId === viewerId;
  const title = mine ? 'You proposed a meet-up' : `${peer} proposed a meet-up`;
  switch (meetup.status) {
    case 'PROPOSED':
      return mine
        ? {
            title,
            state: `Waiting for ${peer} to answer`,
            next: `${peer} can accept or decline.`,
            tone: 'open',
          }
        : {
            title,
            state: 'Waiting for your answer',
            next: 'Accept to confirm the time and place.',
            tone: 'open',
          };
    case 'CONFIRMED':
      return {
        title,
        state: 'Confirmed',
        next: 'Meet there. The buyer shows the hand-off code and the seller types it in.',
        tone: 'good',
      };
    case 'DECLINED':
      return { title, state: 'Declined', next: 'Propose another time or place.', tone: 'ended' };
    case 'CANCELLED':
      return {
        title,
        state: 'Cancelled',
        next: 'Propose another time or place if you still want to meet.',
        tone: 'ended',
      };
    case 'DONE':
      return { title, state: 'Done', next: 'The hand-off was confirmed here.', tone: 'good' };
    case 'NO_SHOW':
      return {
        title,
        state: 'No-show reported',
        next:
          meetup.reportedUserId === viewerId
            ? 'You were reported as absent.'
            : `${peer} was reported as absent.`,
        tone: 'ended',
      };
  }
}
