import type { Offer } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, redisUrl, type TestApp } from '../../test/helper.js';
import { createListing, pairedApps } from '../chat/testing.js';
import { call, offer } from './testing.js';

/**
 * Two processes (two apps on one PostgreSQL database and one Redis) accept two offers on the same
 * listing at the same moment: exactly one buyer gets the reservation.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL || !redisUrl)('concurrent accepts across processes', () => {
  let apps: [TestApp, TestApp];
  let close: () => Promise<void>;
  beforeAll(async () => {
    const paired = await pairedApps(redisUrl!);
    apps = paired.apps;
    close = paired.close;
  });
  afterAll(() => close());

  it('reserves for exactly one buyer, every time', async () => {
    const [a, b] = apps;
    const seller = await createStudent(a);
    const buyers = [await createStudent(a), await createStudent(b)];
    for (let round = 0; round < 5; round++) {
      const listingId = await createListing(a, seller.id);
      const offers: Offer[] = [
        await offer(a, buyers[0]!, listingId, 10),
        await offer(b, buyers[1]!, listingId, 11),
      ];
      const answers = await Promise.all([
        call(a, seller, 'POST', `/offers/${offers[0]!.id}/accept`),
        call(b, seller, 'POST', `/offers/${offers[1]!.id}/accept`),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const winner = answers[0]!.statusCode === 200 ? 0 : 1;
      const rows = await a.app.ctx.db.kysely
        .selectFrom('offers')
        .select(['id', 'status'])
        .where('listing_id', '=', listingId)
        .orderBy('id')
        .execute();
      expect(rows.filter((r) => r.status === 'ACCEPTED').map((r) => r.id)).toEqual([offers[winner]!.id]);
      const listing = await a.app.ctx.db.kysely
        .selectFrom('listings')
        .select(['status', 'reserved_buyer_id', 'accepted_offer_id'])
        .where('id', '=', listingId)
        .executeTakeFirstOrThrow();
      expect(listing).toEqual({
        status: 'RESERVED',
        reserved_buyer_id: buyers[winner]!.id,
        accepted_offer_id: offers[winner]!.id,
      });
    }
  });
});
