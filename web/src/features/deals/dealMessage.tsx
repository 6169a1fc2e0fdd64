import type { ReactNode } from 'react';
import type { ChatMessage, Listing, Offer } from '@campus/contract';
import { MeetupCard } from './MeetupCard';
import { OfferCard } from './OfferCard';
import { PickupCard } from './PickupCard';
import type { DealCards } from './rules';
import { SystemLine } from './SystemLine';

export interface DealMessageContext {
  cards: DealCards;
  myId: number | null;
  /** The other student's first name, as cards say it. */
  peerName: string;
  /** The conversation's listing (its status decides Accept/Counter), when loaded. */
  listing: Listing | null | undefined;
}

/**
 * An offer is a counter-offer when the pair's previous offer on the listing was the other side's
 * and it was COUNTERED (superseded by this one); otherwise a seller's offer is the seller offering
 * the listing at a price agreed in the chat.
 */
export function answersOffer(cards: DealCards, offer: Offer): boolean {
  let previous: Offer | null = null;
  for (const o of cards.offers.values()) {
    if (o.listingId !== offer.listingId || o.buyerId !== offer.buyerId || o.id >= offer.id) continue;
    if (!previous || o.id > previous.id) previous = o;
  }
  return previous !== null && previous.status === 'COUNTERED' && previous.byId !== offer.byId;
}

/**
 * A deal message in the thread: an offer or meet-up card in the state of its newest copy, or a
 * system line; null for text, which the chat renders as a bubble.
 */
export function renderDealMessage(m: ChatMessage, ctx: DealMessageContext): ReactNode | null {
  if (m.kind === 'offer' && m.offer?.claimId !== undefined) {
    // A free item's pickup (features.md §H): the winner's card, in the state of its newest copy.
    const offer = ctx.cards.offers.get(m.offer.id) ?? m.offer;
    return <PickupCard message={m} offer={offer} myId={ctx.myId} peerName={ctx.peerName} />;
  }
  if (m.kind === 'system') return <SystemLine message={m} myId={ctx.myId} peerName={ctx.peerName} />;
  if (m.kind === 'offer' && m.offer) {
    const offer = ctx.cards.offers.get(m.offer.id) ?? m.offer;
    const status = ctx.listing && ctx.listing.id === offer.listingId ? ctx.listing.status : null;
    return (
      <OfferCard
        offer={offer}
        myId={ctx.myId}
        peerName={ctx.peerName}
        listingStatus={status}
        isCounter={answersOffer(ctx.cards, offer)}
      />
    );
  }
  if (m.kind === 'meetup' && m.meetup) {
    const meetup = ctx.cards.meetups.get(m.meetup.id) ?? m.meetup;
    return <MeetupCard meetup={meetup} myId={ctx.myId} peerName={ctx.peerName} />;
  }
  return null;
}
