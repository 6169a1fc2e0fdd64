import { DEALS_MESSAGES, roomIdFor, type ChatRoomSummary, type Offer } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { call, cast, history, listingOf, offer, type Cast } from './testing.js';

const HOUR = 3_600_000;

describe.each(dialects)('offers (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
  });
  afterAll(() => t.close());

  describe('making an offer', () => {
    let c: Cast;
    beforeAll(async () => {
      c = await cast(t);
    });

    it('opens the pair’s room with an offer card and answers 201', async () => {
      const o = await offer(t, c.buyer, c.listingId, '12.50');
      expect(o).toMatchObject({
        listingId: c.listingId,
        buyerId: c.buyer.id,
        byId: c.buyer.id,
        amount: 12.5,
        status: 'PENDING',
      });
      expect(Date.parse(o.expiresAt) - Date.parse(o.createdAt)).toBe(48 * HOUR);
      expect(o.roomId).toBe(roomIdFor(c.buyer.id, c.seller.id));
      const messages = await history(t, c.seller, o.roomId);
      expect(messages.at(-1)).toMatchObject({
        kind: 'offer',
        content: 'Ben offered $12.50',
        offer: { id: o.id },
      });
    });

    it('supersedes the buyer’s PENDING offer (one per buyer per listing)', async () => {
      const first = (await call(t, c.buyer, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
      const second = await offer(t, c.buyer, c.listingId, 14);
      const mine = (await call(t, c.buyer, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
      expect(mine.map((o) => [o.id, o.status])).toEqual([
        [second.id, 'PENDING'],
        [first[0]!.id, 'WITHDRAWN'],
      ]);
      // History shows the first card in its current state.
      const cards = (await history(t, c.buyer, second.roomId)).filter((m) => m.kind === 'offer');
      expect(cards.map((m) => m.offer?.status)).toEqual(['WITHDRAWN', 'PENDING']);
    });

    it('refuses the seller, bad amounts, strangers without a token, and unknown listings', async () => {
      const own = await call(t, c.seller, 'POST', `/listings/${c.listingId}/offers`, { amount: 10 });
      expect([own.statusCode, own.json().message]).toEqual([403, DEALS_MESSAGES.offerOwnListing]);
      for (const amount of [0, -1, 100_000.01, '1.234', 'ten', null]) {
        const res = await call(t, c.buyer, 'POST', `/listings/${c.listingId}/offers`, { amount });
        expect(res.statusCode, String(amount)).toBe(400);
        expect(res.json().code).toBe('VALIDATION');
      }
      expect(
        (await call(t, c.buyer, 'POST', `/listings/${c.listingId}/offers`, { amount: 100_000 })).statusCode,
      ).toBe(201);
      expect((await call(t, null, 'POST', `/listings/${c.listingId}/offers`, { amount: 5 })).statusCode).toBe(
        401,
      );
      expect((await call(t, c.buyer, 'POST', `/listings/99999/offers`, { amount: 5 })).statusCode).toBe(404);
      expect((await call(t, c.buyer, 'POST', `/listings/abc/offers`, { amount: 5 })).statusCode).toBe(400);
    });

    it('lists all offers for the seller and only their own for anyone else', async () => {
      await offer(t, c.third, c.listingId, 9);
      const seller = (await call(t, c.seller, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
      const third = (await call(t, c.third, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
      expect(new Set(seller.map((o) => o.buyerId))).toEqual(new Set([c.buyer.id, c.third.id]));
      expect(third.every((o) => o.buyerId === c.third.id)).toBe(true);
      const paged = await call(t, c.seller, 'GET', `/listings/${c.listingId}/offers?limit=1`);
      expect(paged.json()).toHaveLength(1);
      expect(paged.headers.link).toMatch(/rel="next"/);
    });
  });

  describe('answering', () => {
    it('lets only the side that did not make it accept, reserves for that buyer, declines the rest', async () => {
      const c = await cast(t);
      const mine = await offer(t, c.buyer, c.listingId, 12);
      const other = await offer(t, c.third, c.listingId, 11);
      const self = await call(t, c.buyer, 'POST', `/offers/${mine.id}/accept`);
      expect([self.statusCode, self.json().message]).toEqual([403, DEALS_MESSAGES.offerOwnAnswer]);
      const stranger = await call(t, c.third, 'POST', `/offers/${mine.id}/accept`);
      expect([stranger.statusCode, stranger.json().message]).toEqual([403, DEALS_MESSAGES.offerNotYours]);
      expect((await call(t, null, 'POST', `/offers/${mine.id}/accept`)).statusCode).toBe(401);
      expect((await call(t, c.seller, 'POST', `/offers/424242/accept`)).statusCode).toBe(404);

      const accepted = await call(t, c.seller, 'POST', `/offers/${mine.id}/accept`);
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json()).toMatchObject({ id: mine.id, status: 'ACCEPTED' });

      const forSeller = await listingOf(t, c.seller, c.listingId);
      expect(forSeller).toMatchObject({
        status: 'RESERVED',
        isSold: false,
        reservedFor: { id: c.buyer.id, firstName: 'Ben' },
      });
      expect((await listingOf(t, c.buyer, c.listingId)).reservedFor?.id).toBe(c.buyer.id);
      const forThird = await listingOf(t, c.third, c.listingId);
      expect(forThird.status).toBe('RESERVED');
      expect(forThird).not.toHaveProperty('reservedFor');

      const theirs = (await call(t, c.third, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
      expect(theirs.find((o) => o.id === other.id)?.status).toBe('DECLINED');
      const story = await history(t, c.third, other.roomId);
      expect(story.at(-1)).toMatchObject({ kind: 'system', offer: { id: other.id, status: 'DECLINED' } });

      // Stale state: answered offers and reserved listings.
      const again = await call(t, c.seller, 'POST', `/offers/${mine.id}/accept`);
      expect([again.statusCode, again.json().message]).toEqual([409, DEALS_MESSAGES.offerNotPending]);
      const late = await call(t, c.third, 'POST', `/listings/${c.listingId}/offers`, { amount: 20 });
      expect([late.statusCode, late.json().message]).toEqual([409, DEALS_MESSAGES.offerListingNotAvailable]);
      const story2 = await history(t, c.buyer, mine.roomId);
      expect(story2.at(-1)).toMatchObject({
        kind: 'system',
        content: 'Maya accepted the offer of $12. The listing is reserved.',
      });
    });

    it('gives the inbox preview of a deal line its card, as history does, to both sides only', async () => {
      const c = await cast(t);
      const mine = await offer(t, c.buyer, c.listingId, 12);
      const lastOf = async (who: Cast['buyer']) => {
        const rooms = (await call(t, who, 'GET', '/api/chats')).json() as ChatRoomSummary[];
        return rooms.find((r) => r.id === mine.roomId)?.lastMessage;
      };
      expect(await lastOf(c.seller)).toMatchObject({
        kind: 'offer',
        offer: { id: mine.id, status: 'PENDING' },
      });
      expect((await call(t, c.seller, 'POST', `/offers/${mine.id}/accept`)).statusCode).toBe(200);
      for (const who of [c.buyer, c.seller]) {
        expect(await lastOf(who)).toMatchObject({
          kind: 'system',
          senderId: c.seller.id,
          content: 'Maya accepted the offer of $12. The listing is reserved.',
          offer: { id: mine.id, status: 'ACCEPTED', amount: 12 },
        });
      }
      // A stranger's inbox has no such room.
      expect(await lastOf(c.third)).toBeUndefined();
    });

    it('counters: the old offer becomes COUNTERED and the buyer may accept the new one', async () => {
      const c = await cast(t);
      const first = await offer(t, c.buyer, c.listingId, 10);
      const byAuthor = await call(t, c.buyer, 'POST', `/offers/${first.id}/counter`, { amount: 11 });
      expect(byAuthor.statusCode).toBe(403);
      const res = await call(t, c.seller, 'POST', `/offers/${first.id}/counter`, { amount: 13 });
      expect(res.statusCode).toBe(201);
      const counter = res.json() as Offer;
      expect(counter).toMatchObject({
        buyerId: c.buyer.id,
        byId: c.seller.id,
        amount: 13,
        status: 'PENDING',
      });
      const list = (await call(t, c.seller, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
      expect(list.find((o) => o.id === first.id)?.status).toBe('COUNTERED');
      // The seller made the counter, so only the buyer may accept it.
      expect((await call(t, c.seller, 'POST', `/offers/${counter.id}/accept`)).statusCode).toBe(403);
      expect((await call(t, c.buyer, 'POST', `/offers/${counter.id}/accept`)).statusCode).toBe(200);
      expect((await listingOf(t, c.seller, c.listingId)).status).toBe('RESERVED');
    });

    it('declines and withdraws, each by the right side only', async () => {
      const c = await cast(t);
      const o = await offer(t, c.buyer, c.listingId, 10);
      expect((await call(t, c.seller, 'POST', `/offers/${o.id}/withdraw`)).json().message).toBe(
        DEALS_MESSAGES.offerWithdrawNotAuthor,
      );
      expect((await call(t, c.buyer, 'POST', `/offers/${o.id}/decline`)).statusCode).toBe(403);
      expect((await call(t, c.buyer, 'POST', `/offers/${o.id}/withdraw`)).json().status).toBe('WITHDRAWN');
      expect((await call(t, c.buyer, 'POST', `/offers/${o.id}/withdraw`)).statusCode).toBe(409);
      const o2 = await offer(t, c.buyer, c.listingId, 10);
      expect((await call(t, c.seller, 'POST', `/offers/${o2.id}/decline`)).json().status).toBe('DECLINED');
      expect((await call(t, c.third, 'POST', `/offers/${o2.id}/decline`)).statusCode).toBe(403);
    });

    it('release: the seller only, then the listing is AVAILABLE and takes offers again', async () => {
      const c = await cast(t);
      const o = await offer(t, c.buyer, c.listingId, 10);
      expect((await call(t, c.seller, 'POST', `/listings/${c.listingId}/release`)).statusCode).toBe(409);
      await call(t, c.seller, 'POST', `/offers/${o.id}/accept`);
      expect((await call(t, c.buyer, 'POST', `/listings/${c.listingId}/release`)).json().message).toBe(
        DEALS_MESSAGES.releaseNotSeller,
      );
      expect((await call(t, c.third, 'POST', `/listings/${c.listingId}/release`)).statusCode).toBe(403);
      const res = await call(t, c.seller, 'POST', `/listings/${c.listingId}/release`);
      expect(res.json()).toEqual({ id: c.listingId, status: 'AVAILABLE' });
      expect((await listingOf(t, c.seller, c.listingId)).status).toBe('AVAILABLE');
      const mine = (await call(t, c.buyer, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
      expect(mine[0]?.status).toBe('CANCELLED');
      const next = await offer(t, c.third, c.listingId, 11);
      expect((await call(t, c.seller, 'POST', `/offers/${next.id}/accept`)).statusCode).toBe(200);
    });

    it('PUT /listings/sold still toggles a reserved listing, and back to AVAILABLE', async () => {
      const c = await cast(t);
      const o = await offer(t, c.buyer, c.listingId, 10);
      await call(t, c.seller, 'POST', `/offers/${o.id}/accept`);
      await t.app.inject({
        method: 'PUT',
        url: `/listings/sold/${c.listingId}`,
        headers: { authorization: `Bearer ${c.seller.token}` },
      });
      expect(await listingOf(t, c.seller, c.listingId)).toMatchObject({ status: 'SOLD', isSold: true });
      await t.app.inject({
        method: 'PUT',
        url: `/listings/sold/${c.listingId}`,
        headers: { authorization: `Bearer ${c.seller.token}` },
      });
      expect(await listingOf(t, c.seller, c.listingId)).toMatchObject({ status: 'AVAILABLE', isSold: false });
      // A new reservation works after the manual toggles (the stale ACCEPTED offer is cancelled).
      const again = await offer(t, c.third, c.listingId, 9);
      expect((await call(t, c.seller, 'POST', `/offers/${again.id}/accept`)).statusCode).toBe(200);
    });
  });

  it('a block stops offers and answers either way (safety assertNotBlocked)', async () => {
    const c = await cast(t);
    const o = await offer(t, c.buyer, c.listingId, 10);
    await t.app.inject({
      method: 'PUT',
      url: `/users/${c.buyer.id}/block`,
      headers: { authorization: `Bearer ${c.seller.token}` },
    });
    const refused = await call(t, c.buyer, 'POST', `/listings/${c.listingId}/offers`, { amount: 11 });
    expect(refused.statusCode).toBe(403);
    expect((await call(t, c.seller, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(403);
  });

  describe('timers (durable jobs, injected clock)', () => {
    it('a PENDING offer expires after 48 h, not before', async () => {
      const c = await cast(t);
      const o = await offer(t, c.buyer, c.listingId, 10);
      t.clock.advance(48 * HOUR - 60_000);
      await t.app.ctx.jobs.runDue();
      expect(
        ((await call(t, c.buyer, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[])[0]?.status,
      ).toBe('PENDING');
      t.clock.advance(60_000);
      await t.app.ctx.jobs.runDue();
      expect(
        ((await call(t, c.buyer, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[])[0]?.status,
      ).toBe('EXPIRED');
      expect((await history(t, c.seller, o.roomId)).at(-1)).toMatchObject({
        kind: 'system',
        content: 'The offer of $10 expired',
      });
      expect((await call(t, c.seller, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(409);
    });

    it('a reservation lapses 72 h after acceptance without a confirmed meet-up', async () => {
      const c = await cast(t);
      const o = await offer(t, c.buyer, c.listingId, 10);
      await call(t, c.seller, 'POST', `/offers/${o.id}/accept`);
      t.clock.advance(72 * HOUR - 60_000);
      await t.app.ctx.jobs.runDue();
      expect((await listingOf(t, c.seller, c.listingId)).status).toBe('RESERVED');
      t.clock.advance(60_000);
      await t.app.ctx.jobs.runDue();
      expect((await listingOf(t, c.seller, c.listingId)).status).toBe('AVAILABLE');
      const mine = (await call(t, c.buyer, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
      expect(mine[0]?.status).toBe('EXPIRED');
      expect((await history(t, c.buyer, o.roomId)).at(-1)?.content).toMatch(/reservation lapsed/);
    });

    it('with a confirmed meet-up, the reservation lasts until 48 h after its time', async () => {
      const c = await cast(t);
      const o = await offer(t, c.buyer, c.listingId, 10);
      await call(t, c.seller, 'POST', `/offers/${o.id}/accept`);
      const startsAt = new Date(t.clock.now() + 96 * HOUR).toISOString();
      const m = await call(t, c.buyer, 'POST', '/meetups', {
        listingId: c.listingId,
        spotId: 'student-union',
        startsAt,
      });
      expect(m.statusCode).toBe(201);
      expect((await call(t, c.seller, 'POST', `/meetups/${m.json().id}/accept`)).statusCode).toBe(200);
      t.clock.advance(72 * HOUR);
      await t.app.ctx.jobs.runDue();
      expect((await listingOf(t, c.seller, c.listingId)).status).toBe('RESERVED');
      t.clock.advance(24 * HOUR + 48 * HOUR - 60_000);
      await t.app.ctx.jobs.runDue();
      expect((await listingOf(t, c.seller, c.listingId)).status).toBe('RESERVED');
      t.clock.advance(60_000);
      await t.app.ctx.jobs.runDue();
      expect((await listingOf(t, c.seller, c.listingId)).status).toBe('AVAILABLE');
    });
  });

  it('existing text messages read as kind text', async () => {
    const c = await cast(t);
    const listing = await createListing(t, c.seller.id);
    const o = await offer(t, c.buyer, listing, 3);
    const messages = await history(t, c.buyer, o.roomId);
    expect(messages.every((m) => typeof m.kind === 'string')).toBe(true);
  });
});
