import type { ReactNode } from 'react';
import type { ChatMessage, Listing } from '@campus/contract';
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
 * A deal message in the thread: an offer or meet-up card in the state of its newest copy, or a
 * system line; null for text, which the chat renders as a bubble.
 */
export function renderDealMessage(m: ChatMessage, ctx: DealMessageContext): ReactNode | null {
  if (m.kind === 'offer' && m.offer?.claimId !== undefined) {
    // A free item's pickup (features.md §H): the winner's card, in the state of its newest copy.
    const offer = ctx.cards.offers.get(m.offer.id) ?? m.offer;
    return <PickupCard message={m} offer={offer} myId={ctx.myId} peerName={ctx.peerName} />;
  }
  if (m.kind === 'system') return <SystemLine message={m} />;
  if (m.kind === 'offer' && m.offer) {
    const offer = ctx.cards.offers.get(m.offer.id) ?? m.offer;
    const status = ctx.listing && ctx.listing.id === offer.listingId ? ctx.listing.status : null;
    return <OfferCard offer={offer} myId={ctx.myId} peerName={ctx.peerName} listingStatus={status} />;
  }
  if (m.kind === 'meetup' && m.meetup) {
    const meetup = ctx.cards.meetups.get(m.meetup.id) ?? m.meetup;
    return <MeetupCard meetup={meetup} myId={ctx.myId} peerName={ctx.peerName} />;
  }
  return null;
}
