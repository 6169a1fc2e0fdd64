/**
 * Claims on free items (features.md §H): claiming, withdrawing, listing, choosing and drawing,
 * and who may do each (giver, claimant, other claimant, stranger, anonymous).
 */
import { CLAIMS_MESSAGES, type Claim, type ClaimDraw, type Offer } from '@campus/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { call, claim, claimsOf, giveaway, HOUR, scripted, type Giveaway } from './testing.js';

describe.each(dialects)('claims (%s)', (dialect) => {
  let t: TestApp;
  let random = scripted([]);
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, claims: { random: (n) => random.source(n) } });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    random = scripted([]);
  });

  /** What a client observes of a refusal: status and message. */
  const status = async (...args: Parameters<typeof call>) => {
    const res = await call(...args);
    return [res.statusCode, (res.json() as { message?: string }).message];
  };

  describe('claiming in the window', () => {
    let g: Giveaway;
    let first: Claim;
    beforeAll(async () => {
      g = await giveaway(t, 3);
      first = await claim(t, g.claimants[0]!, g.listing.id, 'For my dorm');
    });

    it('answers 201 with the claim', () => {
      expect(first).toMatchObject({
        listingId: g.listing.id,
        claimantId: g.claimants[0]!.id,
        note: 'For my dorm',
        status: 'OPEN',
        position: null,
      });
      expect(typeof first.id).toBe('number');
      expect(Date.parse(first.createdAt)).not.toBeNaN();
    });

    it('refuses the giver, a second claim, a long note, anonymous callers and unknown items', async () => {
      const url = `/listings/${g.listing.id}/claims`;
      expect(await status(t, g.giver, 'POST', url, { note: '' })).toEqual([403, CLAIMS_MESSAGES.ownListing]);
      expect(await status(t, g.claimants[0]!, 'POST', url, { note: 'again' })).toEqual([
        409,
        CLAIMS_MESSAGES.alreadyClaimed,
      ]);
      expect(await status(t, g.claimants[1]!, 'POST', url, { note: 'x'.repeat(281) })).toEqual([
        400,
        CLAIMS_MESSAGES.noteTooLong,
      ]);
      expect((await call(t, null, 'POST', url, { note: '' })).statusCode).toBe(401);
      expect((await call(t, g.claimants[1]!, 'POST', '/listings/999999/claims', {})).statusCode).toBe(404);
      expect((await call(t, g.claimants[1]!, 'POST', '/listings/abc/claims', {})).statusCode).toBe(400);
    });

    it('refuses offers on a free item', async () => {
      const offer = await call(t, g.claimants[1]!, 'POST', `/listings/${g.listing.id}/offers`, { amount: 5 });
      expect([offer.statusCode, offer.json().message]).toEqual([409, CLAIMS_MESSAGES.offerOnFree]);
    });

    it('lists every claim with names for the giver, only their own for others, nothing for a stranger', async () => {
      await claim(t, g.claimants[1]!, g.listing.id, 'Need a lamp');
      const url = `/listings/${g.listing.id}/claims`;
      const giver = (await call(t, g.giver, 'GET', url)).json() as Claim[];
      expect(giver.map((c) => c.claimantId)).toEqual([g.claimants[1]!.id, g.claimants[0]!.id]);
      expect(giver[0]!.claimant).toMatchObject({ id: g.claimants[1]!.id, firstName: 'Cam1' });
      const own = (await call(t, g.claimants[0]!, 'GET', url)).json() as Claim[];
      expect(own.map((c) => c.id)).toEqual([first.id]);
      expect(own[0]!.claimant).toBeUndefined();
      expect((await call(t, g.stranger, 'GET', url)).json()).toEqual([]);
      expect((await call(t, null, 'GET', url)).statusCode).toBe(401);
      const paged = await call(t, g.giver, 'GET', `${url}?limit=1`);
      expect(paged.json()).toHaveLength(1);
      expect(paged.headers.link).toMatch(/rel="next"/);
    });

    it('refuses choose and draw while the window is open', async () => {
      const closes = new Date(Date.parse(g.listing.claimsCloseAt!)).toISOString();
      expect(await status(t, g.giver, 'POST', `/claims/${first.id}/choose`)).toEqual([
        409,
        CLAIMS_MESSAGES.windowOpen(closes),
      ]);
      expect(await status(t, g.giver, 'POST', `/listings/${g.listing.id}/claims/draw`)).toEqual([
        409,
        CLAIMS_MESSAGES.windowOpen(closes),
      ]);
    });

    it('lets a claimant withdraw an OPEN claim once; nobody else has one to withdraw', async () => {
      const url = `/listings/${g.listing.id}/claims/mine`;
      const res = await call(t, g.claimants[1]!, 'DELETE', url);
      expect([res.statusCode, res.json().status]).toEqual([200, 'WITHDRAWN']);
      expect(await status(t, g.claimants[1]!, 'DELETE', url)).toEqual([
        409,
        CLAIMS_MESSAGES.noClaimToWithdraw,
      ]);
      expect(await status(t, g.stranger, 'DELETE', url)).toEqual([409, CLAIMS_MESSAGES.noClaimToWithdraw]);
      // One claim per student per item: a withdrawn claim is not renewed.
      expect(await status(t, g.claimants[1]!, 'POST', `/listings/${g.listing.id}/claims`, {})).toEqual([
        409,
        CLAIMS_MESSAGES.alreadyClaimed,
      ]);
    });

    it('closes claims when the window ends', async () => {
      t.clock.advance(12 * HOUR);
      expect(await status(t, g.claimants[2]!, 'POST', `/listings/${g.listing.id}/claims`, {})).toEqual([
        409,
        CLAIMS_MESSAGES.windowClosed,
      ]);
    });
  });

  describe('after the window: choose', () => {
    let g: Giveaway;
    let claims: Claim[];
    beforeAll(async () => {
      g = await giveaway(t, 3, 1);
      claims = [];
      for (const c of g.claimants) claims.push(await claim(t, c, g.listing.id));
      t.clock.advance(HOUR);
    });

    it('refuses everyone but the giver, and claims that are not OPEN', async () => {
      const url = `/claims/${claims[0]!.id}/choose`;
      expect(await status(t, g.claimants[0]!, 'POST', url)).toEqual([403, CLAIMS_MESSAGES.notGiver]);
      expect(await status(t, g.claimants[1]!, 'POST', url)).toEqual([403, CLAIMS_MESSAGES.notGiver]);
      expect(await status(t, g.stranger, 'POST', url)).toEqual([403, CLAIMS_MESSAGES.notGiver]);
      expect((await call(t, null, 'POST', url)).statusCode).toBe(401);
      expect((await call(t, g.giver, 'POST', '/claims/999999/choose')).statusCode).toBe(404);
      expect(await status(t, g.stranger, 'POST', `/listings/${g.listing.id}/claims/draw`)).toEqual([
        403,
        CLAIMS_MESSAGES.notGiver,
      ]);
    });

    it('reserves the item for the chosen claimant and draws the rest behind them (recorded)', async () => {
      random.push(0); // of the two others, the second (index 0 after Fisher–Yates' swap) leads
      const res = await call(t, g.giver, 'POST', `/claims/${claims[1]!.id}/choose`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: claims[1]!.id, status: 'CHOSEN', position: 1 });
      const all = await claimsOf(t, g.giver, g.listing.id);
      expect(all.get(claims[0]!.id)).toMatchObject({ status: 'OPEN' });
      expect(all.get(claims[2]!.id)).toMatchObject({ status: 'OPEN' });
      // Fisher–Yates over [c0, c2] with j = 0 at i = 1 swaps them: c2 then c0.
      expect(all.get(claims[2]!.id)!.position).toBe(2);
      expect(all.get(claims[0]!.id)!.position).toBe(3);
      const draw = (
        await call(t, g.claimants[0]!, 'GET', `/listings/${g.listing.id}/claims/draw`)
      ).json() as ClaimDraw;
      expect(draw).toMatchObject({
        method: 'CHOSEN',
        byId: g.giver.id,
        poolClaimIds: claims.map((c) => c.id),
        orderClaimIds: [claims[1]!.id, claims[2]!.id, claims[0]!.id],
        skippedClaimIds: [],
        winnerClaimId: claims[1]!.id,
      });
      expect((await call(t, g.stranger, 'GET', `/listings/${g.listing.id}/claims/draw`)).statusCode).toBe(
        403,
      );
    });

    it('opens the pair’s room with the pickup: RESERVED, a 48 h accepted offer of 0, a hand-off code', async () => {
      const winner = g.claimants[1]!;
      const listing = (await call(t, winner, 'GET', `/listing/${g.listing.id}`)).json();
      expect(listing).toMatchObject({ status: 'RESERVED', free: true, reservedFor: { id: winner.id } });
      const offers = (await call(t, winner, 'GET', `/listings/${g.listing.id}/offers`)).json() as Offer[];
      expect(offers[0]).toMatchObject({
        amount: 0,
        status: 'ACCEPTED',
        claimId: claims[1]!.id,
        buyerId: winner.id,
      });
      expect(Date.parse(offers[0]!.expiresAt) - Date.parse(offers[0]!.createdAt)).toBe(48 * HOUR);
      const messages = (await call(t, winner, 'GET', `/api/chats/${offers[0]!.roomId}`)).json() as Array<{
        kind: string;
        content: string;
      }>;
      expect(messages.at(-1)).toMatchObject({ kind: 'offer', offer: { claimId: claims[1]!.id } });
      expect(messages.at(-1)!.content).toMatch(/Cam1 gets “Desk lamp” for free\. Pick it up by/);
      expect((await call(t, winner, 'GET', `/listings/${g.listing.id}/handoff`)).json().code).toMatch(
        /^\d{4}$/,
      );
      expect((await call(t, g.claimants[0]!, 'GET', `/listings/${g.listing.id}/handoff`)).statusCode).toBe(
        403,
      );
      const notes = (await call(t, winner, 'GET', '/notifications')).json() as {
        notifications: Array<{ type: string; title: string; link: string }>;
      };
      expect(notes.notifications[0]).toMatchObject({
        type: 'CLAIM_WON',
        title: 'You got “Desk lamp”!',
        link: `/chat/${offers[0]!.roomId}`,
      });
    });

    it('refuses a second decision', async () => {
      expect(await status(t, g.giver, 'POST', `/claims/${claims[0]!.id}/choose`)).toEqual([
        409,
        CLAIMS_MESSAGES.alreadyDecided,
      ]);
      expect(await status(t, g.giver, 'POST', `/listings/${g.listing.id}/claims/draw`)).toEqual([
        409,
        CLAIMS_MESSAGES.alreadyDecided,
      ]);
    });

    it('confirms a deal at price 0 with the hand-off code; the rest lose, told kindly', async () => {
      const code = (await call(t, g.claimants[1]!, 'GET', `/listings/${g.listing.id}/handoff`)).json()
        .code as string;
      const res = await call(t, g.giver, 'POST', `/listings/${g.listing.id}/handoff`, { code });
      expect(res.statusCode).toBe(200);
      expect(res.json().deal).toMatchObject({ price: 0, buyerId: g.claimants[1]!.id, sellerId: g.giver.id });
      const all = await claimsOf(t, g.giver, g.listing.id);
      expect([...all.values()].map((c) => [c.id, c.status]).sort()).toEqual(
        [
          [claims[0]!.id, 'LOST'],
          [claims[1]!.id, 'DONE'],
          [claims[2]!.id, 'LOST'],
        ].sort(),
      );
      const notes = (await call(t, g.claimants[0]!, 'GET', '/notifications')).json() as {
        notifications: Array<{ type: string; title: string; body: string }>;
      };
      expect(notes.notifications[0]).toMatchObject({
        type: 'CLAIM_LOST',
        title: 'Someone else got “Desk lamp” this time',
      });
      expect(notes.notifications[0]!.body).toMatch(/free items? (is|are) nearby|new free items/);
      // The deal unlocks reviews.
      const deals = (await call(t, g.claimants[1]!, 'GET', '/deals')).json() as Array<{ canReview: boolean }>;
      expect(deals[0]!.canReview).toBe(true);
    });
  });

  describe('after the window: draw', () => {
    it('draws uniformly with the injected source and records pool, order and winner', async () => {
      const g = await giveaway(t, 3, 1);
      const ids: number[] = [];
      for (const c of g.claimants) ids.push((await claim(t, c, g.listing.id)).id);
      t.clock.advance(HOUR);
      // Fisher–Yates over [a, b, c]: i = 2 → j = 2 (stay), i = 1 → j = 0 (swap a, b): b, a, c.
      random.push(2, 0);
      const res = await call(t, g.giver, 'POST', `/listings/${g.listing.id}/claims/draw`);
      expect(res.statusCode).toBe(200);
      const draw = res.json() as ClaimDraw;
      expect(draw).toMatchObject({
        method: 'DRAWN',
        byId: g.giver.id,
        poolClaimIds: ids,
        orderClaimIds: [ids[1], ids[0], ids[2]],
        winnerClaimId: ids[1],
      });
      expect(Date.parse(draw.at)).toBe(t.clock.now());
      const all = await claimsOf(t, g.giver, g.listing.id);
      expect(all.get(ids[1]!)!.status).toBe('CHOSEN');
    });

    it('refuses a draw without claims', async () => {
      const g = await giveaway(t, 0, 1);
      t.clock.advance(HOUR);
      expect(await status(t, g.giver, 'POST', `/listings/${g.listing.id}/claims/draw`)).toEqual([
        409,
        CLAIMS_MESSAGES.noClaims,
      ]);
    });
  });
});
