import { useId } from 'react';
import type { ChatMessage, Offer } from '@campus/contract';
import { HandshakeIcon } from '../../ui/icons';
import { whenText } from '../claims/when';
import { CardFrame, cardAnchor } from './CardFrame';
import type { CardWords } from './wording';

/** What the pickup card says to each side, in the pickup's current state. */
export function pickupWords(offer: Offer, myId: number | null, peerName: string): CardWords {
  const winner = myId === offer.buyerId;
  const by = whenText(Date.parse(offer.expiresAt));
  if (offer.status === 'ACCEPTED') {
    return {
      title: winner ? 'It’s yours — free' : `${peerName} gets it for free`,
      state: `Pick up by ${by}`,
      next: winner
        ? 'Propose a meet-up below, and show your hand-off code when you meet.'
        : 'Agree on a meet-up below, and enter their hand-off code when you meet.',
      tone: 'good',
    };
  }
  return {
    title: winner ? 'Free pickup' : `Free pickup for ${peerName}`,
    state: offer.status === 'EXPIRED' ? 'Pickup lapsed' : 'Pickup ended',
    next: 'The item went to the next student in line.',
    tone: 'ended',
  };
}

/**
 * The winner's card in the pair's chat (features.md §H): the system message that opened the
 * pickup, shown as a card with the time it must happen by; a lapsed or given-up pickup says so.
 */
export function PickupCard({
  message,
  offer,
  myId,
  peerName,
}: {
  message: ChatMessage;
  offer: Offer;
  myId: number | null;
  peerName: string;
}) {
  const labelId = useId();
  const words = pickupWords(offer, myId, peerName);
  return (
    <CardFrame
      anchorId={cardAnchor('offer', offer.id)}
      own={message.senderId === myId}
      kind="Free item"
      icon={<HandshakeIcon size={14} />}
      words={words}
      labelId={labelId}
    />
  );
}
