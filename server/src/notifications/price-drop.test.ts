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
import { postListing, validFields } from '../listings/testing.js';
import { campusMorning } from './testing.js';

const HOUR = 3_600_000;

describe.each(dialects)('PRICE_DROP at most once per listing per saver per 24 h (%s)', (dialect) => {
  let t: TestApp;
  let seller: Student;
  let early: Student;
  let late: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    t.clock.nowMs = campusMorning(Date.now());
    seller = await createStudent(t);
    early = await createStudent(t);
    late = await createStudent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const drops = async (s: Student, listingId: number) =>
    (
      (await asStudent(t, s, { method: 'GET', url: '/notifications?limit=50' })).json() as NotificationPage
    ).notifications.filter((n) => n.type === 'PRICE_DROP' && n.link === `/single_listing/${listingId}`);

  it('raising and dropping the price again does not notify the same saver again within the day', async () => {
    const listing = await postListing(
      t,
      seller,
      validFields({ name: 'Road bike', category: 'OTHER', price: '100' }),
    );
    const price = async (value: number) => {
      const res = await asStudent(t, seller, {
        method: 'PATCH',
        url: `/listing/${listing.id}`,
        payload: { price: value },
      });
      expect(res.statusCode).toBe(200);
      await t.app.ctx.jobs.runDue();
    };
    await asStudent(t, early, { method: 'PUT', url: `/listings/${listing.id}/save` });
    await price(80);
    expect(await drops(early, listing.id)).toHaveLength(1);

    // Up and down again, twice, within the day: nothing new for the saver who was told.
    await price(100);
    await price(80);
    t.clock.advance(23 * HOUR);
    await price(100);
    await price(80);
    expect(await drops(early, listing.id)).toHaveLength(1);

    // Someone who saved it since has not been told yet: the rule is per saver.
    await asStudent(t, late, { method: 'PUT', url: `/listings/${listing.id}/save` });
    await price(100);
    await price(80);
    expect(await drops(late, listing.id)).toHaveLength(1);
    expect(await drops(early, listing.id)).toHaveLength(1);

    // A day after the first notice, a new qualifying drop reaches the first saver again.
    t.clock.advance(HOUR);
    await price(100);
    await price(80);
    const early2 = await drops(early, listing.id);
    expect(early2).toHaveLength(2);
    expect(early2[0]).toMatchObject({ body: 'Now $80 (was $100, 20 % less).' });
    expect(await drops(late, listing.id)).toHaveLength(1);
  });
});
