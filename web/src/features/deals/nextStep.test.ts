import { describe, expect, it } from 'vitest';
import type { ChatMessage, Listing, Meetup, Offer } from '@campus/contract';
import { answersOffer } from './dealMessage';
import { nextStep, quickReplies, suggestedOffer, type StepInput } from './nextStep';
import { defaultMeetupTime, reduceCards } from './rules';
import { systemText } from './systemWords';
import { offerWords } from './wording';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const BUYER = 7;
const SELLER = 3;

const offer = (over: Partial<Offer> = {}): Offer => ({
  id: 1,
  listingId: 10,
  roomId: '3:7',
  buyerId: BUYER,
  byId: BUYER,
  amount: 40,
  status: 'PENDING',
  createdAt: '2026-11-23T11:00:00Z',
  expiresAt: '2026-11-25T11:00:00Z',
  holdUntil: null,
  ...over,
});

const meetup = (over: Partial<Meetup> = {}): Meetup => ({
  id: 5,
  listingId: 10,
  roomId: '3:7',
  proposerId: BUYER,
  spotId: 'library-entrance',
  place: 'Main library entrance',
  startsAt: '2026-11-24T15:00:00Z',
  status: 'PROPOSED',
  createdAt: '2026-11-23T11:00:00Z',
  reportedUserId: null,
  ...over,
});

const msg = (id: number, over: Partial<ChatMessage>): ChatMessage => ({
  id,
  roomId: '3:7',
  content: '',
  url: null,
  senderId: BUYER,
  sentAt: '2026-11-23T11:00:00Z',
  listingId: 10,
  kind: 'system',
  ...over,
});

type L = StepInput['listing'];
const listing = (over: Partial<Listing> = {}): L => ({
  id: 10,
  status: 'AVAILABLE',
  seller: { id: SELLER } as Listing['seller'],
  ...over,
});

function step(viewer: number, l: L, messages: ChatMessage[] = [], canRate = false) {
  const peerId = viewer === SELLER ? BUYER : SELLER;
  const peer = viewer === SELLER ? 'Omar' : 'Maya';
  return nextStep({
    listing: l,
    myId: viewer,
    peerId,
    peer,
    cards: reduceCards(messages),
    canRate,
    now: NOW,
  });
}

describe('the pinned next step', () => {
  it('a new chat: the buyer makes an offer, the seller offers it to the buyer', () => {
    expect(step(BUYER, listing())).toMatchObject({ kind: 'offer', label: 'Make an offer' });
    expect(step(SELLER, listing())).toMatchObject({ kind: 'seller-offer', label: 'Offer it to Omar' });
  });

  it('a pending offer: the other side answers it, its author waits', () => {
    const m = [msg(1, { kind: 'offer', offer: offer() })];
    expect(step(SELLER, listing(), m)).toEqual({
      kind: 'answer-offer',
      label: "Answer Omar's offer of $40",
      offerId: 1,
    });
    expect(step(BUYER, listing(), m)).toMatchObject({
      kind: 'wait-offer',
      label: 'Waiting for Maya to answer your $40 offer',
    });
    // The seller's offer (reserve-from-chat) is the buyer's to answer.
    const sellers = [msg(2, { kind: 'offer', offer: offer({ id: 2, byId: SELLER, amount: 35 }) })];
    expect(step(BUYER, listing(), sellers)?.label).toBe("Answer Maya's offer of $35");
    // An expired offer waiting for its timer is nothing to answer.
    const old = [msg(3, { kind: 'offer', offer: offer({ expiresAt: '2026-11-23T11:59:00Z' }) })];
    expect(step(SELLER, listing(), old)?.kind).toBe('seller-offer');
  });

  it('reserved: a meet-up first, then the hand-off code on each side', () => {
    const reserved = listing({
      status: 'RESERVED',
      reservedFor: { id: BUYER, firstName: 'Omar', lastName: 'X' },
    });
    expect(step(BUYER, reserved)).toMatchObject({ kind: 'meetup', label: 'Propose a meet-up' });
    const proposed = [msg(4, { kind: 'meetup', meetup: meetup({ proposerId: SELLER }) })];
    expect(step(BUYER, reserved, proposed)).toMatchObject({
      kind: 'answer-meetup',
      label: "Answer Maya's meet-up proposal",
    });
    expect(step(SELLER, reserved, proposed)?.kind).toBe('wait-meetup');
    const confirmed = [msg(4, { kind: 'meetup', meetup: meetup({ status: 'CONFIRMED' }) })];
    expect(step(BUYER, reserved, confirmed)).toMatchObject({
      kind: 'show-code',
      label: 'Show hand-off code',
    });
    expect(step(SELLER, reserved, confirmed)).toMatchObject({
      kind: 'enter-code',
      label: 'Enter hand-off code',
    });
    // Reserved for someone else: nothing to do in this chat.
    const other = listing({ status: 'RESERVED', reservedFor: { id: 99, firstName: 'Z', lastName: 'Z' } });
    expect(step(SELLER, other)).toBeNull();
    expect(step(BUYER, other)).toBeNull();
  });

  it('sold: rate the other student once, then nothing', () => {
    expect(step(SELLER, listing({ status: 'SOLD' }), [], true)).toMatchObject({
      kind: 'rate',
      label: 'Rate Omar',
    });
    expect(step(SELLER, listing({ status: 'SOLD' }))).toBeNull();
  });
});

describe('quick replies', () => {
  it('suggests about 10% under the asking price, rounded as people say prices', () => {
    expect(suggestedOffer(40)).toBe(36);
    expect(suggestedOffer(45)).toBe(40);
    expect(suggestedOffer(15)).toBe(13.5);
    expect(suggestedOffer(250)).toBe(225);
    expect(suggestedOffer(1)).toBe(0.5);
    expect(quickReplies(40)).toEqual(['Is it still available?', 'Can you do $36?', 'When can we meet?']);
  });
});

describe('the default meet-up time (local)', () => {
  const at = (h: number, m = 0, day = 23) => new Date(2026, 10, day, h, m);
  it('is the first full hour at least an hour ahead, in daytime', () => {
    expect(defaultMeetupTime(at(12, 0))).toEqual(at(13, 0));
    expect(defaultMeetupTime(at(12, 10))).toEqual(at(14, 0));
    expect(defaultMeetupTime(at(19, 0))).toEqual(at(20, 0));
  });
  it('is noon when that falls at night: the same morning, or the next day', () => {
    expect(defaultMeetupTime(at(19, 30))).toEqual(at(12, 0, 24));
    expect(defaultMeetupTime(at(23, 30))).toEqual(at(12, 0, 24));
    expect(defaultMeetupTime(at(2, 0))).toEqual(at(12, 0));
    expect(defaultMeetupTime(at(7, 59))).toEqual(at(9, 0));
    expect(defaultMeetupTime(at(8, 0))).toEqual(at(9, 0));
  });
});

describe('system lines told to the reader', () => {
  const accepted = msg(9, {
    senderId: SELLER,
    content: 'Maya accepted the offer of $40. The listing is reserved.',
    offer: offer({ status: 'ACCEPTED' }),
  });
  it('says "You" to the one who acted and "your" to the other', () => {
    expect(systemText(accepted, SELLER, 'Omar')).toBe(
      "You accepted Omar's offer of $40. It's reserved for Omar.",
    );
    expect(systemText(accepted, BUYER, 'Maya')).toBe(
      "Maya accepted your offer of $40. It's reserved for you.",
    );
    const declined = msg(10, {
      senderId: SELLER,
      content: 'Maya declined the offer of $40',
      offer: offer({ status: 'DECLINED' }),
    });
    expect(systemText(declined, SELLER, 'Omar')).toBe("You declined Omar's offer of $40");
    expect(systemText(declined, BUYER, 'Maya')).toBe('Maya declined your offer of $40');
    const confirmed = msg(11, {
      senderId: BUYER,
      content: 'Omar confirmed the meet-up at Main library entrance',
      meetup: meetup({ status: 'CONFIRMED', proposerId: SELLER }),
    });
    expect(systemText(confirmed, SELLER, 'Omar')).toBe(
      'Omar confirmed your meet-up at Main library entrance',
    );
    expect(systemText(confirmed, BUYER, 'Maya')).toBe(
      "You confirmed Maya's meet-up at Main library entrance",
    );
  });
  it('leaves lines it does not know, and the app’s own, as the server wrote them', () => {
    const reservedElsewhere = msg(12, {
      senderId: SELLER,
      content: 'The offer of $40 was declined: the listing was reserved for someone else',
      offer: offer({ status: 'DECLINED' }),
    });
    expect(systemText(reservedElsewhere, BUYER, 'Maya')).toBe(reservedElsewhere.content);
    const lapsed = msg(13, {
      senderId: 0,
      content: 'The reservation lapsed.',
      offer: offer({ status: 'EXPIRED' }),
    });
    expect(systemText(lapsed, BUYER, 'Maya')).toBe('The reservation lapsed.');
  });
});

describe('offer cards: counters and seller offers', () => {
  it('a seller offer answering nothing reads as the seller offering the item', () => {
    const sellers = offer({ id: 2, byId: SELLER, amount: 35 });
    const cards = reduceCards([msg(2, { kind: 'offer', offer: sellers })]);
    expect(answersOffer(cards, sellers)).toBe(false);
    expect(offerWords(sellers, BUYER, 'Maya', 'AVAILABLE', false).title).toBe(
      'Maya offered it to you for $35',
    );
    expect(offerWords(sellers, SELLER, 'Omar', 'AVAILABLE', false).title).toBe('You offered it for $35');
  });
  it('an offer after the other side’s COUNTERED one is a counter', () => {
    const first = offer({ id: 1, status: 'COUNTERED' });
    const counter = offer({ id: 2, byId: SELLER, amount: 45 });
    const cards = reduceCards([
      msg(1, { kind: 'offer', offer: first }),
      msg(2, { kind: 'offer', offer: counter }),
    ]);
    expect(answersOffer(cards, counter)).toBe(true);
    expect(offerWords(counter, BUYER, 'Maya', 'AVAILABLE', true).title).toBe('Maya countered with $45');
  });
});
