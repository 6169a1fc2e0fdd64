/**
 * A bundle from acceptance to one deal (features.md §H): one meet-up and one hand-off code confirm
 * every listing as one deal with `items`, every listing SOLD; one review per party per deal.
 * A single-listing deal answers `items` with its one listing.
 */
import { TRUST_MESSAGES, type Deal, type DealWithReviews, type Meetup, type Offer } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { call, history, listingOf, offer } from './testing.js';

const HOUR = 3_600_000;

describe.each(dialects)('bundle hand-off (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
  });
  afterAll(() => t.close());

  const at = (ms: number) => new Date(t.clock.now() + ms).toISOString();

  async function reservedBundle(): Promise<{
    seller: Student;
    buyer: Student;
    third: Student;
    ids: number[];
    o: Offer;
  }> {
    const seller = await createStudent(t, { firstName: 'Maya' });
    const buyer = await createStudent(t, { firstName: 'Ben' });
    const third = await createStudent(t, { firstName: 'Tess' });
    const ids = [
      await createListing(t, seller.id, 'Desk lamp'),
      await createListing(t, seller.id, 'Kettle'),
      await createListing(t, seller.id, 'Rug'),
    ];
    const res = await call(t, buyer, 'POST', '/bundles', { listingIds: ids, amount: 40 });
    const o = res.json() as Offer;
    expect((await call(t, seller, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(200);
    return { seller, buyer, third, ids, o };
  }

  it('one meet-up for the bundle, whichever listing it names; one code records one deal with its items', async () => {
    const b = await reservedBundle();
    // Proposed about the third listing, it is filed under the bundle's first: one open meet-up.
    const proposed = await call(t, b.buyer, 'POST', '/meetups', {
      listingId: b.ids[2],
      spotId: 'library-entrance',
      startsAt: at(2 * HOUR),
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const meetup = proposed.json() as Meetup;
    expect(meetup.listingId).toBe(b.ids[0]);
    const second = await call(t, b.seller, 'POST', '/meetups', {
      listingId: b.ids[1],
      spotId: 'student-union',
      startsAt: at(3 * HOUR),
    });
    expect(second.statusCode).toBe(409);
    expect((await call(t, b.seller, 'POST', `/meetups/${meetup.id}/accept`)).statusCode).toBe(200);

    const { code } = (await call(t, b.buyer, 'GET', `/listings/${b.ids[1]}/handoff`)).json() as {
      code: string;
    };
    // Only the seller types it, on any listing of the bundle.
    expect((await call(t, b.buyer, 'POST', `/listings/${b.ids[2]}/handoff`, { code })).statusCode).toBe(403);
    expect((await call(t, b.third, 'POST', `/listings/${b.ids[2]}/handoff`, { code })).statusCode).toBe(403);
    expect((await call(t, null, 'POST', `/listings/${b.ids[2]}/handoff`, { code })).statusCode).toBe(401);
    const res = await call(t, b.seller, 'POST', `/listings/${b.ids[2]}/handoff`, { code });
    expect(res.statusCode, res.body).toBe(200);
    const { deal } = res.json() as { deal: Deal };
    expect(deal).toMatchObject({
      listingId: b.ids[0],
      listingName: 'Desk lamp + 2 more',
      sellerId: b.seller.id,
      buyerId: b.buyer.id,
      price: 40,
      items: [
        { listingId: b.ids[0], listingName: 'Desk lamp' },
        { listingId: b.ids[1], listingName: 'Kettle' },
        { listingId: b.ids[2], listingName: 'Rug' },
      ],
    });
    for (const id of b.ids) {
      const l = await listingOf(t, b.seller, id);
      expect([l.status, l.isSold]).toEqual(['SOLD', true]);
    }
    const dealsOf = async (who: Student) => (await call(t, who, 'GET', '/deals')).json() as DealWithReviews[];
    for (const who of [b.seller, b.buyer]) {
      const mine = (await dealsOf(who)).filter((d) => d.id === deal.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.items.map((i) => i.listingName)).toEqual(['Desk lamp', 'Kettle', 'Rug']);
      expect(mine[0]!.canReview).toBe(true);
    }
    expect(await dealsOf(b.third)).toEqual([]);
    const messages = await history(t, b.buyer, b.o.roomId);
    expect(messages.find((m) => m.meetup?.id === meetup.id)?.meetup?.status).toBe('DONE');
    expect(messages.at(-1)?.content).toBe(
      'Hand-off confirmed: 3 items sold for $40 in total. You can now rate each other.',
    );
    // A second hand-off finds nothing reserved; the sold toggle cannot undo a listing of the deal.
    expect((await call(t, b.seller, 'POST', `/listings/${b.ids[0]}/handoff`, { code })).statusCode).toBe(409);
    expect((await call(t, b.seller, 'PUT', `/listings/sold/${b.ids[1]}`)).statusCode).toBe(409);

    // One review per party per deal.
    const review = (who: Student) => call(t, who, 'POST', `/deals/${deal.id}/review`, { stars: 5 });
    expect((await review(b.buyer)).statusCode).toBe(201);
    const twice = await review(b.buyer);
    expect([twice.statusCode, twice.json().message]).toEqual([409, TRUST_MESSAGES.alreadyReviewed]);
    expect((await review(b.seller)).statusCode).toBe(201);
    expect((await review(b.third)).statusCode).toBe(403);
    const profile = (await call(t, b.seller, 'GET', `/users/${b.seller.id}/profile`)).json() as {
      ratingCount: number;
      dealsCount: number;
    };
    expect([profile.ratingCount, profile.dealsCount]).toEqual([1, 1]);
  });

  it('wrong codes count against the bundle’s one reservation, whichever listing they are typed on', async () => {
    const b = await reservedBundle();
    const { code } = (await call(t, b.buyer, 'GET', `/listings/${b.ids[0]}/handoff`)).json() as {
      code: string;
    };
    const wrong = code === '0000' ? '1111' : '0000';
    for (let i = 0; i < 5; i++) {
      const res = await call(t, b.seller, 'POST', `/listings/${b.ids[i % 3]}/handoff`, { code: wrong });
      expect(res.statusCode).toBe(i < 4 ? 400 : 409);
    }
    expect((await call(t, b.seller, 'POST', `/listings/${b.ids[1]}/handoff`, { code })).statusCode).toBe(409);
    for (const id of b.ids) expect((await listingOf(t, b.seller, id)).status).toBe('RESERVED');
  });

  it('a single-listing deal answers items with its one listing', async () => {
    const seller = await createStudent(t, { firstName: 'Maya' });
    const buyer = await createStudent(t, { firstName: 'Ben' });
    const listingId = await createListing(t, seller.id, 'Bike lock');
    const o = await offer(t, buyer, listingId, 9);
    await call(t, seller, 'POST', `/offers/${o.id}/accept`);
    const { code } = (await call(t, buyer, 'GET', `/listings/${listingId}/handoff`)).json() as {
      code: string;
    };
    const { deal } = (await call(t, seller, 'POST', `/listings/${listingId}/handoff`, { code })).json() as {
      deal: Deal;
    };
    expect(deal).toMatchObject({
      listingId,
      listingName: 'Bike lock',
      items: [{ listingId, listingName: 'Bike lock' }],
    });
    const listed = ((await call(t, buyer, 'GET', '/deals')).json() as DealWithReviews[]).find(
      (d) => d.id === deal.id,
    );
    expect(listed?.items).toEqual([{ listingId, listingName: 'Bike lock' }]);
  });
});
