import type { NotificationPage } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { campusMorning } from '../notifications/testing.js';
import { postListing, validFields } from './testing.js';

describe.each(dialects)('what an edit causes commits or rolls back with it (%s)', (dialect) => {
  let t: TestApp;
  let seller: Student;
  let saver: Student;
  let searcher: Student;
  /** Makes every listing write fail after its own work, as a failing disk or constraint would. */
  let failWrites = false;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    t.clock.nowMs = campusMorning(Date.now());
    seller = await createStudent(t);
    saver = await createStudent(t);
    searcher = await createStudent(t);
    t.app.ctx.domainEvents.inTransaction('listing.written', async () => {
      if (failWrites) throw new Error('disk full');
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.app.ctx.db.kysely;
  const notices = async (s: Student, listingId: number) =>
    (
      (await asStudent(t, s, { method: 'GET', url: '/notifications?limit=50' })).json() as NotificationPage
    ).notifications
      .filter((n) => n.link === `/single_listing/${listingId}`)
      .map((n) => n.type);
  const matchJobs = async (listingId: number) =>
    (await db().selectFrom('jobs').select('payload').where('type', '=', 'selling.match').execute()).filter(
      (j) => (JSON.parse(j.payload) as { listingId: number }).listingId === listingId,
    );
  const recordedDrops = async (listingId: number) =>
    db().selectFrom('listing_price_drops').select('id').where('listing_id', '=', listingId).execute();

  it('a price drop notice and a saved-search match are both lost with a failed edit, and both follow a saved one', async () => {
    const listing = await postListing(
      t,
      seller,
      validFields({ name: 'Rowing boat', category: 'OTHER', price: '200' }),
    );
    await t.app.ctx.jobs.runDue();
    await asStudent(t, saver, { method: 'PUT', url: `/listings/${listing.id}/save` });
    // Saved after the listing was matched: only the edit's match can tell the searcher.
    await asStudent(t, searcher, { method: 'POST', url: '/searches', payload: { query: 'rowing boat' } });

    failWrites = true;
    try {
      const failed = await asStudent(t, seller, {
        method: 'PATCH',
        url: `/listing/${listing.id}`,
        payload: { price: 100 },
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      failWrites = false;
    }
    expect(await recordedDrops(listing.id)).toEqual([]);
    expect(await notices(saver, listing.id)).toEqual([]);
    expect(await matchJobs(listing.id)).toEqual([]);
    await t.app.ctx.jobs.runDue();
    expect(await notices(searcher, listing.id)).toEqual([]);

    const saved = await asStudent(t, seller, {
      method: 'PATCH',
      url: `/listing/${listing.id}`,
      payload: { price: 100 },
    });
    expect(saved.statusCode).toBe(200);
    expect(await recordedDrops(listing.id)).toHaveLength(1);
    expect(await notices(saver, listing.id)).toEqual(['PRICE_DROP']);
    expect(await matchJobs(listing.id)).toHaveLength(1);
    await t.app.ctx.jobs.runDue();
    expect(await notices(searcher, listing.id)).toEqual(['SAVED_SEARCH_MATCH']);
  });
});
