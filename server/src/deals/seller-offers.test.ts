/**
 * A seller offers their listing in a chat (POST /listings/{id}/offers with roomId): the buyer of
 * that chat accepts it and the listing is reserved for them. Every refusal as seller, buyer,
 * stranger, student of another campus and anonymous.
 */
import { DEALS_MESSAGES, roomIdFor, type Offer } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  createStudent,
  createTestApp,
  dialects,
  type TestApp,
} from '../../test/helper.js';
import { createListing, sendAs } from '../chat/testing.js';
import { call, cast, history, listingOf, offer, type Cast } from './testing.js';

describe.each(dialects)('seller offers in a chat (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: TWO_CAMPUSES });
  });
  afterAll(() => t.close());

  /** A cast whose buyer asked about the listing in chat (the room exists). */
  async function chatting(): Promise<Cast & { roomId: string }> {
    const c = await cast(t);
    await sendAs(t, c.buyer.id, c.buyer.id, c.seller.id, {
      content: 'Is it still available?',
      listingId: c.listingId,
    });
    return { ...c, roomId: roomIdFor(c.buyer.id, c.seller.id) };
  }

  const sellerOffer = (c: Cast & { roomId: string }, amount: number | string, roomId = c.roomId) =>
    call(t, c.seller, 'POST', `/listings/${c.listingId}/offers`, { amount, roomId });

  it('offers the listing to the chat’s buyer; the buyer accepts and it is reserved for them', async () => {
    const c = await chatting();
    const res = await sellerOffer(c, '12.00');
    expect(res.statusCode).toBe(201);
    const o = res.json() as Offer;
    expect(o).toMatchObject({
      listingId: c.listingId,
      roomId: c.roomId,
      buyerId: c.buyer.id,
      byId: c.seller.id,
      amount: 12,
      status: 'PENDING',
    });
    // The buyer sees the card in the chat, and the offer in their list.
    expect((await history(t, c.buyer, c.roomId)).at(-1)).toMatchObject({
      kind: 'offer',
      senderId: c.seller.id,
      content: 'Maya offered $12',
      offer: { id: o.id, status: 'PENDING' },
    });
    const mine = (await call(t, c.buyer, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
    expect(mine.map((x) => x.id)).toEqual([o.id]);

    // The seller cannot accept their own offer, nor can a stranger; the buyer can.
    const own = await call(t, c.seller, 'POST', `/offers/${o.id}/accept`);
    expect([own.statusCode, own.json().message]).toEqual([403, DEALS_MESSAGES.offerOwnAnswer]);
    const stranger = await call(t, c.third, 'POST', `/offers/${o.id}/accept`);
    expect([stranger.statusCode, stranger.json().message]).toEqual([403, DEALS_MESSAGES.offerNotYours]);
    expect((await call(t, c.buyer, 'POST', `/offers/${o.id}/withdraw`)).statusCode).toBe(403);
    const accepted = await call(t, c.buyer, 'POST', `/offers/${o.id}/accept`);
    expect([accepted.statusCode, accepted.json().status]).toEqual([200, 'ACCEPTED']);

    expect(await listingOf(t, c.seller, c.listingId)).toMatchObject({
      status: 'RESERVED',
      reservedFor: { id: c.buyer.id, firstName: 'Ben' },
    });
    const code = await call(t, c.buyer, 'GET', `/listings/${c.listingId}/handoff`);
    expect(code.statusCode).toBe(200);
    expect(code.json().code).toMatch(/^\d{4}$/);
    // Reserved: no more offers, from the seller either.
    const late = await sellerOffer(c, 13);
    expect([late.statusCode, late.json().message]).toEqual([409, DEALS_MESSAGES.offerListingNotAvailable]);
  });

  it('answers the buyer’s PENDING offer (COUNTERED) and replaces its own earlier one (WITHDRAWN)', async () => {
    const c = await chatting();
    const buyers = await offer(t, c.buyer, c.listingId, 10);
    const first = (await sellerOffer(c, 13)).json() as Offer;
    const second = (await sellerOffer(c, 12)).json() as Offer;
    const all = (await call(t, c.seller, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
    expect(all.map((o) => [o.id, o.status])).toEqual([
      [second.id, 'PENDING'],
      [first.id, 'WITHDRAWN'],
      [buyers.id, 'COUNTERED'],
    ]);
    // The buyer may counter the seller's offer as any other.
    const counter = await call(t, c.buyer, 'POST', `/offers/${second.id}/counter`, { amount: 11 });
    expect([counter.statusCode, counter.json().byId]).toEqual([201, c.buyer.id]);
  });

  it('refuses the seller without a chat, or into a chat that is not theirs or does not exist', async () => {
    const c = await chatting();
    const url = `/listings/${c.listingId}/offers`;
    const noRoom = await call(t, c.seller, 'POST', url, { amount: 12 });
    expect([noRoom.statusCode, noRoom.json().message]).toEqual([403, DEALS_MESSAGES.offerOwnListing]);
    // A student who never chatted with the seller; a chat of two others; nonsense ids.
    for (const roomId of [
      roomIdFor(c.seller.id, c.third.id),
      roomIdFor(c.buyer.id, c.third.id),
      'x',
      '5:5',
    ]) {
      const res = await sellerOffer(c, 12, roomId);
      expect([res.statusCode, res.json().message], roomId).toEqual([403, DEALS_MESSAGES.offerNoRoom]);
    }
    for (const amount of [0, 'ten', 100_000.01]) {
      expect((await sellerOffer(c, amount)).statusCode, String(amount)).toBe(400);
    }
    const tooLong = await sellerOffer(c, 12, 'x'.repeat(41));
    expect(tooLong.statusCode).toBe(400);
  });

  it('refuses a buyer or stranger naming a chat that is not theirs with the seller, and anonymous calls', async () => {
    const c = await chatting();
    const url = `/listings/${c.listingId}/offers`;
    const stranger = await call(t, c.third, 'POST', url, { amount: 9, roomId: c.roomId });
    expect([stranger.statusCode, stranger.json().message]).toEqual([403, DEALS_MESSAGES.offerRoomNotYours]);
    // The buyer naming their own chat is the plain buyer's offer.
    const own = await call(t, c.buyer, 'POST', url, { amount: 9, roomId: c.roomId });
    expect([own.statusCode, own.json().byId]).toEqual([201, c.buyer.id]);
    expect((await call(t, null, 'POST', url, { amount: 9, roomId: c.roomId })).statusCode).toBe(401);
  });

  it('keeps to the campus: another campus’s listing is unknown, and its students never chatted', async () => {
    const c = await chatting();
    const uwSeller = await createStudent(t, { firstName: 'Uma', domain: TEST_CAMPUS_DOMAINS.uw });
    const uwListing = await createListing(t, uwSeller.id);
    // The msu seller offering to a uw student: no chat can exist between them.
    const across = await sellerOffer(c, 12, roomIdFor(c.seller.id, uwSeller.id));
    expect([across.statusCode, across.json().message]).toEqual([403, DEALS_MESSAGES.offerNoRoom]);
    // A uw student naming the msu chat on the msu listing, or the msu seller on the uw listing.
    const foreign = await call(t, uwSeller, 'POST', `/listings/${c.listingId}/offers`, {
      amount: 12,
      roomId: c.roomId,
    });
    expect(foreign.statusCode).toBe(404);
    const other = await call(t, c.seller, 'POST', `/listings/${uwListing}/offers`, {
      amount: 12,
      roomId: c.roomId,
    });
    expect(other.statusCode).toBe(404);
  });

  it('a block between the two stops the seller’s offer', async () => {
    const c = await chatting();
    await t.app.inject({
      method: 'PUT',
      url: `/users/${c.seller.id}/block`,
      headers: { authorization: `Bearer ${c.buyer.token}` },
    });
    const res = await sellerOffer(c, 12);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/can't message/);
  });
});
