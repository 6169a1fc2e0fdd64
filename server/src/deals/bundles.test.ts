/**
 * Bundles (features.md §H): POST /bundles and its answers, every rule and refusal, on both
 * databases. Hand-off, deals and reviews of a bundle are in bundle-handoff.test.ts.
 */
import { BUNDLE_MESSAGES, CLAIMS_MESSAGES, DEALS_MESSAGES, roomIdFor, type Offer } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { postListing, validFields } from '../listings/testing.js';
import { call, history, listingOf, offer } from './testing.js';

const HOUR = 3_600_000;

describe.each(dialects)('bundles (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: TWO_CAMPUSES });
  });
  afterAll(() => t.close());

  interface Shop {
    seller: Student;
    buyer: Student;
    other: Student;
    stranger: Student;
    ids: number[];
  }
  /** A seller with three $15 listings, two buyers and a stranger, of one campus. */
  async function shop(domain?: string): Promise<Shop> {
    const seller = await createStudent(t, { firstName: 'Maya', domain });
    const ids = [
      await createListing(t, seller.id, 'Desk lamp'),
      await createListing(t, seller.id, 'Kettle'),
      await createListing(t, seller.id, 'Rug'),
    ];
    return {
      seller,
      buyer: await createStudent(t, { firstName: 'Ben', domain }),
      other: await createStudent(t, { firstName: 'Ola', domain }),
      stranger: await createStudent(t, { firstName: 'Tess', domain }),
      ids,
    };
  }
  const bundle = async (who: Student | null, listingIds: unknown, amount: unknown = 30) =>
    call(t, who, 'POST', '/bundles', { listingIds, amount });
  async function made(s: Shop, amount = 30, who = s.buyer): Promise<Offer> {
    const res = await bundle(who, s.ids, amount);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Offer;
  }

  describe('making a bundle offer', () => {
    it('answers 201 with an offer card listing every item, in the pair’s room', async () => {
      const s = await shop();
      const o = await made(s, 36.5);
      expect(o).toMatchObject({
        listingId: s.ids[0],
        listingIds: s.ids,
        buyerId: s.buyer.id,
        byId: s.buyer.id,
        amount: 36.5,
        status: 'PENDING',
        roomId: roomIdFor(s.buyer.id, s.seller.id),
      });
      expect(o.items!.map((i) => [i.listingId, i.listingName, i.price])).toEqual([
        [s.ids[0], 'Desk lamp', 15],
        [s.ids[1], 'Kettle', 15],
        [s.ids[2], 'Rug', 15],
      ]);
      expect(Date.parse(o.expiresAt) - Date.parse(o.createdAt)).toBe(48 * HOUR);
      const last = (await history(t, s.seller, o.roomId)).at(-1)!;
      expect(last).toMatchObject({ kind: 'offer', content: 'Ben offered $36.50 for a bundle of 3 items' });
      expect(last.offer?.listingIds).toEqual(s.ids);
      expect(last.offer?.items?.map((i) => i.listingName)).toEqual(['Desk lamp', 'Kettle', 'Rug']);
    });

    it('refuses fewer than 2, more than 10, duplicates and bad amounts (400)', async () => {
      const s = await shop();
      const more = [];
      for (let i = 0; i < 8; i++) more.push(await createListing(t, s.seller.id, `Book ${i}`));
      const cases: Array<[unknown, unknown, string]> = [
        [[s.ids[0]], 20, BUNDLE_MESSAGES.tooFew],
        [[], 20, BUNDLE_MESSAGES.tooFew],
        [[...s.ids, ...more], 20, BUNDLE_MESSAGES.tooMany],
        [[s.ids[0], s.ids[0]], 20, BUNDLE_MESSAGES.duplicates],
        ['1,2', 20, BUNDLE_MESSAGES.listingIdsRequired],
        [[s.ids[0], 'x'], 20, DEALS_MESSAGES.listingIdInvalid],
      ];
      for (const [ids, amount, message] of cases) {
        const res = await bundle(s.buyer, ids, amount);
        expect([res.statusCode, res.json().message], JSON.stringify(ids)).toEqual([400, message]);
      }
      for (const amount of [0, -1, 100_000.01, '1.234', 'ten', null]) {
        const res = await bundle(s.buyer, s.ids, amount);
        expect(res.statusCode, String(amount)).toBe(400);
      }
      // 10 is allowed, and $100,000 is.
      expect((await bundle(s.buyer, [...s.ids, ...more.slice(0, 7)], 100_000)).statusCode).toBe(201);
    });

    it('refuses listings of several sellers (400), the seller’s own (403), unknown ones (404)', async () => {
      const s = await shop();
      const elsewhere = await createListing(t, s.other.id, 'Chair');
      const mixed = await bundle(s.buyer, [s.ids[0], elsewhere]);
      expect([mixed.statusCode, mixed.json().message]).toEqual([400, BUNDLE_MESSAGES.oneSeller]);
      const own = await bundle(s.seller, s.ids);
      expect([own.statusCode, own.json().message]).toEqual([403, BUNDLE_MESSAGES.ownListings]);
      const unknown = await bundle(s.buyer, [s.ids[0], 999_999]);
      expect([unknown.statusCode, unknown.json().message]).toEqual([404, BUNDLE_MESSAGES.listingMissing]);
      expect((await bundle(null, s.ids)).statusCode).toBe(401);
    });

    it('refuses a reserved or sold listing (409, naming it)', async () => {
      const s = await shop();
      const single = await offer(t, s.other, s.ids[1]!, 12);
      expect((await call(t, s.seller, 'POST', `/offers/${single.id}/accept`)).statusCode).toBe(200);
      const res = await bundle(s.buyer, s.ids);
      expect([res.statusCode, res.json().message]).toEqual([409, BUNDLE_MESSAGES.notAvailable('Kettle')]);
    });

    it('refuses a free item: it is claimed, never bundled (409)', async () => {
      const s = await shop();
      const free = await postListing(
        t,
        s.seller,
        validFields({ name: 'Old fan', price: '', free: 'true', category: 'LIFESTYLE' }),
      );
      const res = await bundle(s.buyer, [s.ids[0], free.id]);
      expect([res.statusCode, res.json().message]).toEqual([409, CLAIMS_MESSAGES.offerOnFree]);
    });

    it('refuses a listing of another campus like an unknown one (404)', async () => {
      const s = await shop();
      const uw = await shop(TEST_CAMPUS_DOMAINS.uw);
      const res = await bundle(s.buyer, uw.ids);
      expect([res.statusCode, res.json().message]).toEqual([404, BUNDLE_MESSAGES.listingMissing]);
      // A student of the other campus cannot answer this campus's bundle either.
      const o = await made(s);
      expect((await call(t, uw.seller, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(404);
      expect((await call(t, uw.buyer, 'GET', `/listings/${s.ids[0]}/offers`)).statusCode).toBe(404);
    });

    it('a new bundle supersedes the buyer’s PENDING one with that seller', async () => {
      const s = await shop();
      const first = await made(s, 30);
      const second = await made(s, 32);
      const mine = (await call(t, s.buyer, 'GET', `/listings/${s.ids[2]}/offers`)).json() as Offer[];
      expect(mine.map((o) => [o.id, o.status])).toEqual([
        [second.id, 'PENDING'],
        [first.id, 'WITHDRAWN'],
      ]);
    });
  });

  describe('answering a bundle offer', () => {
    it('shows among the offers of each of its listings: the seller sees all, a buyer their own', async () => {
      const s = await shop();
      const o = await made(s);
      const single = await offer(t, s.other, s.ids[1]!, 11);
      for (const id of s.ids) {
        const seller = (await call(t, s.seller, 'GET', `/listings/${id}/offers`)).json() as Offer[];
        expect(seller.map((x) => x.id)).toEqual(id === s.ids[1] ? [single.id, o.id] : [o.id]);
        expect(seller.find((x) => x.id === o.id)?.listingIds).toEqual(s.ids);
        const other = (await call(t, s.other, 'GET', `/listings/${id}/offers`)).json() as Offer[];
        expect(other.map((x) => x.id)).toEqual(id === s.ids[1] ? [single.id] : []);
        expect((await call(t, s.stranger, 'GET', `/listings/${id}/offers`)).json()).toEqual([]);
      }
    });

    it('only the seller may accept; accepting reserves every listing and declines other offers on them', async () => {
      const s = await shop();
      const o = await made(s, 40);
      const rival = await offer(t, s.other, s.ids[2]!, 14);
      const unrelated = await createListing(t, s.seller.id, 'Poster');
      const untouched = await offer(t, s.other, unrelated, 5);
      expect((await call(t, s.buyer, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(403);
      expect((await call(t, s.stranger, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(403);
      expect((await call(t, null, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(401);
      const res = await call(t, s.seller, 'POST', `/offers/${o.id}/accept`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: o.id, status: 'ACCEPTED', listingIds: s.ids });
      for (const id of s.ids) {
        const l = await listingOf(t, s.buyer, id);
        expect([l.status, l.reservedFor?.id]).toEqual(['RESERVED', s.buyer.id]);
      }
      const theirs = (await call(t, s.other, 'GET', `/listings/${s.ids[2]}/offers`)).json() as Offer[];
      expect(theirs.find((x) => x.id === rival.id)?.status).toBe('DECLINED');
      const stillOpen = (await call(t, s.other, 'GET', `/listings/${unrelated}/offers`)).json() as Offer[];
      expect(stillOpen.find((x) => x.id === untouched.id)?.status).toBe('PENDING');
      expect((await history(t, s.buyer, o.roomId)).at(-1)).toMatchObject({
        kind: 'system',
        content: 'Maya accepted the bundle offer of $40. All 3 listings are reserved.',
      });
      // The hand-off code reads from any listing of the bundle, for the buyer only.
      const codes = [];
      for (const id of s.ids) {
        const r = await call(t, s.buyer, 'GET', `/listings/${id}/handoff`);
        expect(r.statusCode).toBe(200);
        codes.push((r.json() as { code: string }).code);
        expect((await call(t, s.stranger, 'GET', `/listings/${id}/handoff`)).statusCode).toBe(403);
        expect((await call(t, s.seller, 'GET', `/listings/${id}/handoff`)).statusCode).toBe(403);
      }
      expect(new Set(codes).size).toBe(1);
    });

    it('refuses to accept when a listing is no longer AVAILABLE, and reserves none of them', async () => {
      const s = await shop();
      const o = await made(s);
      const single = await offer(t, s.other, s.ids[0]!, 15);
      // The seller accepted the single offer first: the bundle holding that listing is declined.
      expect((await call(t, s.seller, 'POST', `/offers/${single.id}/accept`)).statusCode).toBe(200);
      const mine = (await call(t, s.buyer, 'GET', `/listings/${s.ids[1]}/offers`)).json() as Offer[];
      expect(mine[0]).toMatchObject({ id: o.id, status: 'DECLINED' });
      // A fresh bundle of the free ones, then one of them is sold without a deal.
      const o2 = (await bundle(s.buyer, [s.ids[1], s.ids[2]])).json() as Offer;
      expect((await call(t, s.seller, 'PUT', `/listings/sold/${s.ids[2]}`)).statusCode).toBe(200);
      const res = await call(t, s.seller, 'POST', `/offers/${o2.id}/accept`);
      expect([res.statusCode, res.json().message]).toEqual([409, BUNDLE_MESSAGES.notAvailable('Rug')]);
      expect((await listingOf(t, s.buyer, s.ids[1]!)).status).toBe('AVAILABLE');
    });

    it('counter, decline and withdraw work like any offer; a counter keeps the items', async () => {
      const s = await shop();
      const o = await made(s, 30);
      expect((await call(t, s.buyer, 'POST', `/offers/${o.id}/counter`, { amount: 35 })).statusCode).toBe(
        403,
      );
      const counter = await call(t, s.seller, 'POST', `/offers/${o.id}/counter`, { amount: 38 });
      expect(counter.statusCode, counter.body).toBe(201);
      const c = counter.json() as Offer;
      expect(c).toMatchObject({ byId: s.seller.id, amount: 38, status: 'PENDING', listingIds: s.ids });
      const seller = (await call(t, s.seller, 'GET', `/listings/${s.ids[0]}/offers`)).json() as Offer[];
      expect(seller.map((x) => [x.id, x.status])).toEqual([
        [c.id, 'PENDING'],
        [o.id, 'COUNTERED'],
      ]);
      // The seller made the counter: only the buyer answers it; the seller may withdraw it.
      expect((await call(t, s.seller, 'POST', `/offers/${c.id}/decline`)).statusCode).toBe(403);
      expect((await call(t, s.buyer, 'POST', `/offers/${c.id}/withdraw`)).statusCode).toBe(403);
      const declined = await call(t, s.buyer, 'POST', `/offers/${c.id}/decline`);
      expect(declined.json()).toMatchObject({ status: 'DECLINED', listingIds: s.ids });
      const again = await made(s, 33);
      const withdrawn = await call(t, s.buyer, 'POST', `/offers/${again.id}/withdraw`);
      expect(withdrawn.json()).toMatchObject({ status: 'WITHDRAWN', listingIds: s.ids });
      expect((await call(t, s.seller, 'POST', `/offers/${again.id}/accept`)).statusCode).toBe(409);
    });

    it('expires after 48 h', async () => {
      const s = await shop();
      const o = await made(s);
      t.clock.advance(48 * HOUR);
      await t.app.ctx.jobs.runDue();
      const seen = (await call(t, s.buyer, 'GET', `/listings/${s.ids[1]}/offers`)).json() as Offer[];
      expect(seen[0]).toMatchObject({ id: o.id, status: 'EXPIRED' });
    });

    it('releasing frees every listing; from any listing of the bundle, by the seller only', async () => {
      const s = await shop();
      const o = await made(s);
      await call(t, s.seller, 'POST', `/offers/${o.id}/accept`);
      expect((await call(t, s.buyer, 'POST', `/listings/${s.ids[2]}/release`)).statusCode).toBe(403);
      expect((await call(t, s.seller, 'POST', `/listings/${s.ids[2]}/release`)).statusCode).toBe(200);
      for (const id of s.ids) expect((await listingOf(t, s.buyer, id)).status).toBe('AVAILABLE');
      const mine = (await call(t, s.buyer, 'GET', `/listings/${s.ids[0]}/offers`)).json() as Offer[];
      expect(mine[0]).toMatchObject({ id: o.id, status: 'CANCELLED' });
      // The code is gone: the buyer is no longer the reserved buyer of any of them.
      expect((await call(t, s.buyer, 'GET', `/listings/${s.ids[1]}/handoff`)).statusCode).toBe(403);
      expect(
        (await call(t, s.seller, 'POST', `/listings/${s.ids[1]}/handoff`, { code: '0000' })).statusCode,
      ).toBe(409);
    });

    it('a reservation lapsing after 72 h frees every listing', async () => {
      const s = await shop();
      const o = await made(s);
      await call(t, s.seller, 'POST', `/offers/${o.id}/accept`);
      t.clock.advance(72 * HOUR);
      await t.app.ctx.jobs.runDue();
      for (const id of s.ids) expect((await listingOf(t, s.seller, id)).status).toBe('AVAILABLE');
      const mine = (await call(t, s.buyer, 'GET', `/listings/${s.ids[0]}/offers`)).json() as Offer[];
      expect(mine[0]).toMatchObject({ id: o.id, status: 'EXPIRED' });
    });

    it('two bundle accepts racing for one shared listing: exactly one wins', async () => {
      for (let round = 0; round < 3; round++) {
        const s = await shop();
        const shared = s.ids[1]!;
        const a = (await bundle(s.buyer, [s.ids[0], shared])).json() as Offer;
        const b = (await bundle(s.other, [shared, s.ids[2]])).json() as Offer;
        const answers = await Promise.all([
          call(t, s.seller, 'POST', `/offers/${a.id}/accept`),
          call(t, s.seller, 'POST', `/offers/${b.id}/accept`),
        ]);
        expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
        const winner = answers[0]!.statusCode === 200 ? s.buyer : s.other;
        const won = winner === s.buyer ? [s.ids[0]!, shared] : [shared, s.ids[2]!];
        for (const id of s.ids) {
          const l = await listingOf(t, s.seller, id);
          expect([id, l.status, l.reservedFor?.id]).toEqual(
            won.includes(id) ? [id, 'RESERVED', winner.id] : [id, 'AVAILABLE', undefined],
          );
        }
      }
    });
  });
});
