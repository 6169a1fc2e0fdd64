import { DEAL_EVENTS, formatDollars, type ChatMessage } from '@campus/contract';

/**
 * A deal's system line as its reader should hear it. The server's line is neutral ("Maya accepted
 * the offer of $40. The listing is reserved.") and embeds the offer or meet-up as it now is; here
 * it is told to each side: "You accepted Omar's offer of $40" to the one who acted, "Maya accepted
 * your offer of $40" to the other. The event is recognised by the contract's own sentence after
 * the actor's name (DEAL_EVENTS), so a line we do not know is shown as the server wrote it.
 */
export function systemText(m: ChatMessage, myId: number | null, peer: string): string {
  if (m.kind !== 'system' || myId === null || m.senderId === 0) return m.content;
  const mine = m.senderId === myId;
  const offer = m.offer;
  const meetup = m.meetup;
  /** The text DEAL_EVENTS writes after the actor's name. */
  const after = (text: string, actor: string) => (text.startsWith(actor) ? text.slice(actor.length) : null);
  const ACTOR = '\u0000';
  const tailIs = (template: string) => {
    const tail = after(template, ACTOR);
    return tail !== null && m.content.endsWith(tail);
  };

  if (offer) {
    const amount = offer.amount;
    const price = formatDollars(amount);
    // Whose offer it was, from the reader's side.
    const authorMine = offer.byId === myId;
    const whose = authorMine ? 'your' : mine ? possessive(peer) : 'their';
    const reservedFor = offer.buyerId === myId ? 'you' : peer;
    if (offer.status === 'ACCEPTED' && tailIs(DEAL_EVENTS.offerAccepted(ACTOR, amount))) {
      return `${mine ? 'You' : peer} accepted ${whose} offer of ${price}. It's reserved for ${reservedFor}.`;
    }
    if (offer.status === 'DECLINED' && tailIs(DEAL_EVENTS.offerDeclined(ACTOR, amount))) {
      return `${mine ? 'You' : peer} declined ${whose} offer of ${price}`;
    }
    if (offer.status === 'WITHDRAWN' && tailIs(DEAL_EVENTS.offerWithdrawn(ACTOR, amount))) {
      return mine ? `You withdrew your offer of ${price}` : `${peer} withdrew their offer of ${price}`;
    }
    if (offer.status === 'COUNTERED' && mine && m.content.includes(' countered with ')) {
      return `You countered with ${m.content.split(' countered with ')[1]}`;
    }
    if (offer.status === 'CANCELLED' && mine && tailIs(DEAL_EVENTS.reservationReleased(ACTOR))) {
      return 'You released the reservation. The listing is available again.';
    }
  }
  if (meetup) {
    const proposerMine = meetup.proposerId === myId;
    const whose = proposerMine ? 'your' : mine ? possessive(peer) : 'their';
    if (meetup.status === 'CONFIRMED' && tailIs(DEAL_EVENTS.meetupAccepted(ACTOR, meetup.place))) {
      return `${mine ? 'You' : peer} confirmed ${whose} meet-up at ${meetup.place}`;
    }
    if (meetup.status === 'DECLINED' && tailIs(DEAL_EVENTS.meetupDeclined(ACTOR))) {
      return `${mine ? 'You' : peer} declined ${whose} meet-up`;
    }
    if (meetup.status === 'CANCELLED' && mine && tailIs(DEAL_EVENTS.meetupCancelled(ACTOR))) {
      return 'You cancelled the meet-up';
    }
  }
  return m.content;
}

/**
 * "Omar's", "James'": the possessive of a first name. Here rather than in nextStep.ts, so that the
 * inbox (which words system lines) does not load the deal rules nextStep.ts reads.
 */
export function possessive(name: string): string {
  return name.endsWith('s') ? `${name}'` : `${name}'s`;
}
