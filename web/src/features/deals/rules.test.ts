import { describe, expect, it } from 'vitest';
import { DEALS_MESSAGES, type ChatMessage, type Meetup, type Offer } from '@campus/contract';
import {
  checkAmount,
  checkMeetupTime,
  defaultMeetupTime,
  meetupActions,
  offerActions,
  openMeetup,
  reduceCards,
  reservedBuyerToAsk,
} from './rules';
import { offerWords } from './wording';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const BUYER = 7;
const SELLER = 3;
const STRANGER = 99;

function offer(over: Partial<Offer> = {}): Offer {
  return {
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
  };
}

function meetup(over: Partial<Meetup> = {}): Meetup {
  return {
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
  };
}

function message(id: number, over: Partial<ChatMessage>): ChatMessage {
  return {
    id,
    roomId: '3:7',
    content: '',
    url: null,
    senderId: BUYER,
    sentAt: '2026-11-23T11:00:00Z',
    listingId: 10,
    kind: 'text',
    ...over,
  };
}

describe('offerActions', () => {
  it('lets the side that did not make a pending offer accept, decline or counter it', () => {
    expect(offerActions(offer(), SELLER, 'AVAILABLE', NOW)).toEqual({
      accept: true,
      decline: true,
      counter: true,
      withdraw: false,
    });
    // A seller's counter is answered by the buyer.
    expect(offerActions(offer({ byId: SELLER }), BUYER, 'AVAILABLE', NOW).accept).toBe(true);
  });

  it('lets only the author withdraw', () => {
    expect(offerActions(offer(), BUYER, 'AVAILABLE', NOW)).toEqual({
      accept: false,
      decline: false,
      counter: false,
      withdraw: true,
    });
  });

  it('offers nothing on an answered, expired or foreign offer', () => {
    const none = { accept: false, decline: false, counter: false, withdraw: false };
    for (const status of [
      'ACCEPTED',
      'DECLINED',
      'COUNTERED',
      'WITHDRAWN',
      'EXPIRED',
      'CANCELLED',
    ] as const) {
      expect(offerActions(offer({ status }), SELLER, 'AVAILABLE', NOW)).toEqual(none);
      expect(offerActions(offer({ status }), BUYER, 'AVAILABLE', NOW)).toEqual(none);
    }
    expect(offerActions(offer({ expiresAt: '2026-11-23T11:59:00Z' }), SELLER, 'AVAILABLE', NOW)).toEqual(
      none,
    );
    expect(offerActions(offer(), STRANGER, 'AVAILABLE', NOW)).toEqual(none);
    expect(offerActions(offer(), null, 'AVAILABLE', NOW)).toEqual(none);
  });

  it('takes no acceptance or counter once the listing is reserved or sold', () => {
    const can = offerActions(offer(), SELLER, 'RESERVED', NOW);
    expect(can).toEqual({ accept: false, decline: true, counter: false, withdraw: false });
  });
});

describe('meetupActions', () => {
  it('lets the other student accept or decline a proposal, and either cancel it', () => {
    expect(meetupActions(meetup(), SELLER, NOW)).toEqual({
      accept: true,
      decline: true,
      cancel: true,
      calendar: true,
      noShow: false,
    });
    expect(meetupActions(meetup(), BUYER, NOW)).toEqual({
      accept: false,
      decline: false,
      cancel: true,
      calendar: true,
      noShow: false,
    });
    expect(meetupActions(meetup(), STRANGER, NOW).cancel).toBe(false);
  });

  it('offers "no-show" only from 15 minutes to 48 hours after a confirmed time', () => {
    const confirmed = meetup({ status: 'CONFIRMED', startsAt: '2026-11-23T12:00:00Z' });
    const at = (minutes: number) => NOW + minutes * 60_000;
    expect(meetupActions(confirmed, BUYER, at(14)).noShow).toBe(false);
    expect(meetupActions(confirmed, BUYER, at(15)).noShow).toBe(true);
    expect(meetupActions(confirmed, SELLER, at(48 * 60)).noShow).toBe(true);
    expect(meetupActions(confirmed, SELLER, at(48 * 60 + 1)).noShow).toBe(false);
    expect(meetupActions(confirmed, SELLER, at(15)).accept).toBe(false);
  });

  it('offers nothing on a closed meet-up', () => {
    for (const status of ['DECLINED', 'CANCELLED', 'DONE', 'NO_SHOW'] as const) {
      expect(Object.values(meetupActions(meetup({ status }), SELLER, NOW)).some(Boolean)).toBe(false);
    }
  });
});

describe('reduceCards', () => {
  it('keeps the newest copy of each offer and meet-up, whatever order the messages came in', () => {
    const messages = [
      message(4, { kind: 'system', offer: offer({ status: 'ACCEPTED' }) }),
      message(1, { kind: 'offer', offer: offer() }),
      message(2, { kind: 'meetup', meetup: meetup() }),
      message(3, { kind: 'text', content: 'ok' }),
      message(5, { kind: 'system', meetup: meetup({ status: 'CONFIRMED' }) }),
    ];
    const cards = reduceCards(messages);
    expect(cards.offers.get(1)?.status).toBe('ACCEPTED');
    expect(cards.meetups.get(5)?.status).toBe('CONFIRMED');
    expect(openMeetup(cards, 10)?.status).toBe('CONFIRMED');
    expect(openMeetup(cards, 11)).toBeNull();
  });
});

describe('input checks mirrored from the contract', () => {
  it('reads amounts as the server does', () => {
    expect(checkAmount('40')).toEqual({ amount: '40' });
    expect(checkAmount(' $39.50 ')).toEqual({ amount: '39.50' });
    expect(checkAmount('')).toEqual({ error: DEALS_MESSAGES.amountRequired });
    expect(checkAmount('0')).toEqual({ error: DEALS_MESSAGES.amountInvalid });
    expect(checkAmount('100000.01')).toEqual({ error: DEALS_MESSAGES.amountInvalid });
    expect(checkAmount('4.005')).toEqual({ error: DEALS_MESSAGES.amountInvalid });
  });

  it('keeps meet-up times 15 minutes to 30 days ahead', () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(checkMeetupTime(iso(NOW + 10 * 60_000), NOW)).toEqual({ error: DEALS_MESSAGES.meetupTooSoon });
    expect(checkMeetupTime(iso(NOW + 31 * 86_400_000), NOW)).toEqual({ error: DEALS_MESSAGES.meetupTooFar });
    expect(checkMeetupTime('', NOW)).toEqual({ error: DEALS_MESSAGES.meetupStartsAtInvalid });
    expect(checkMeetupTime(iso(NOW + 86_400_000), NOW)).toEqual({ startsAt: iso(NOW + 86_400_000) });
    const suggested = defaultMeetupTime(new Date(NOW)).getTime();
    expect('startsAt' in checkMeetupTime(iso(suggested), NOW)).toBe(true);
  });
});

describe('offerWords', () => {
  it('says who made it and what happens next from the viewer’s side', () => {
    expect(offerWords(offer(), SELLER, 'Leo', 'AVAILABLE')).toMatchObject({
      title: 'Leo offered $40',
      state: 'Waiting for your answer',
    });
    expect(offerWords(offer({ byId: SELLER, amount: 45 }), SELLER, 'Leo', 'AVAILABLE').title).toBe(
      'You countered with $45',
    );
    expect(offerWords(offer({ status: 'ACCEPTED' }), BUYER, 'Maya', 'SOLD').state).toBe('Accepted · sold');
  });
});

describe('Mark as Sold on a reserved listing', () => {
  const buyer = { id: BUYER, firstName: 'Ben', lastName: 'Okafor' };
  it('asks for the reserved buyer’s hand-off code instead of selling in one tap', () => {
    expect(reservedBuyerToAsk({ status: 'RESERVED', isSold: false, reservedFor: buyer })).toEqual(buyer);
  });
  it('toggles at once when nobody holds the listing, or when it is sold already', () => {
    expect(reservedBuyerToAsk({ status: 'AVAILABLE', isSold: false })).toBeNull();
    expect(reservedBuyerToAsk({ status: 'SOLD', isSold: true })).toBeNull();
  });
  it('says plainly what selling without a deal costs', () => {
    expect(DEALS_MESSAGES.soldWithoutDealWarning('Ben')).toMatch(
      /^No deal will be recorded and Ben won't be able to review\./,
    );
  });
});
