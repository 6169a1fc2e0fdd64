import type { Offer } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { call as dealCall, listingOf } from '../deals/testing.js';
import { MOD_EMAIL, call } from './testing.js';

/**
 * A moderator removing one listing of a bundle (features.md §H) ends the whole bundle: a reserved
 * bundle frees every other listing, a pending one is cancelled — never half a reservation.
 */
describe.each(dialects)('removing a listing of a bundle (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: { MODERATOR_EMAILS: MOD_EMAIL } });
  });
  afterAll(() => t.close());

  it('frees the other listings of a reserved bundle and cancels a pending one', async () => {
    const mod = await createStudent(t, { email: MOD_EMAIL, firstName: 'Mona' });
    const seller = await createStudent(t, { firstName: 'Maya' });
    const buyer = await createStudent(t, { firstName: 'Ben' });
    const other = await createStudent(t, { firstName: 'Ola' });
    const ids = [
      await createListing(t, seller.id, 'Desk lamp'),
      await createListing(t, seller.id, 'Kettle'),
      await createListing(t, seller.id, 'Rug'),
    ];
    const reserved = (
      await dealCall(t, buyer, 'POST', '/bundles', { listingIds: ids.slice(0, 2), amount: 20 })
    ).json() as Offer;
    const pending = (
      await dealCall(t, other, 'POST', '/bundles', { listingIds: ids.slice(1), amount: 25 })
    ).json() as Offer;
    expect((await dealCall(t, seller, 'POST', `/offers/${reserved.id}/accept`)).statusCode).toBe(200);
    // The other buyer's bundle shared the kettle, so the accept declined it; a new one on the rug is
    // pending when the rug is removed.
    const extra = await createListing(t, seller.id, 'Poster');
    const open = (
      await dealCall(t, other, 'POST', '/bundles', { listingIds: [ids[2], extra], amount: 9 })
    ).json() as Offer;
    const before = (await dealCall(t, other, 'GET', `/listings/${ids[2]}/offers`)).json() as Offer[];
    expect(before.map((o) => [o.id, o.status])).toEqual([
      [open.id, 'PENDING'],
      [pending.id, 'DECLINED'],
    ]);

    // Removing the kettle (the reserved bundle's second listing) frees the lamp.
    const removed = await call(t, mod, 'POST', `/mod/listings/${ids[1]}/remove`, {
      reason: 'Counterfeit goods',
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await listingOf(t, seller, ids[0]!)).status).toBe('AVAILABLE');
    const mine = (await dealCall(t, buyer, 'GET', `/listings/${ids[0]}/offers`)).json() as Offer[];
    expect(mine[0]).toMatchObject({ id: reserved.id, status: 'CANCELLED' });
    expect((await dealCall(t, buyer, 'GET', `/listings/${ids[0]}/handoff`)).statusCode).toBe(403);

    // Removing the rug cancels the pending bundle that holds it.
    expect(
      (await call(t, mod, 'POST', `/mod/listings/${ids[2]}/remove`, { reason: 'Counterfeit goods' }))
        .statusCode,
    ).toBe(200);
    const theirs = (await dealCall(t, other, 'GET', `/listings/${extra}/offers`)).json() as Offer[];
    expect(theirs[0]).toMatchObject({ id: open.id, status: 'CANCELLED' });
  });
});
