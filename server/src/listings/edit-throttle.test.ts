import { SELLING_LIMITS, SELLING_MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  redisUrl,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { postListing, validFields } from './testing.js';

const variants = dialects.map((dialect) => ({
  dialect,
  redis: dialect === 'postgres' && redisUrl !== undefined,
}));

describe.each(variants)(
  'listing edits are throttled per student ($dialect, redis: $redis)',
  ({ dialect, redis }) => {
    let t: TestApp;
    let seller: Student;
    let other: Student;

    beforeAll(async () => {
      t = await createTestApp({ dialect, redis, jobWorker: false });
      seller = await createStudent(t);
      other = await createStudent(t);
    });
    afterAll(async () => {
      await t.close();
    });

    const patch = (s: Student, id: number, payload: Record<string, unknown>) =>
      asStudent(t, s, { method: 'PATCH', url: `/listing/${id}`, payload });
    const matchJobs = async () =>
      (
        await t.app.ctx.db.kysely
          .selectFrom('jobs')
          .select('id')
          .where('type', '=', 'selling.match')
          .execute()
      ).length;

    it(`allows ${SELLING_LIMITS.editsPerHour} edits an hour across the student's listings, then 429`, async () => {
      const a = await postListing(t, seller, validFields({ name: 'Desk lamp', category: 'LIFESTYLE' }));
      const b = await postListing(t, seller, validFields({ name: 'Floor lamp', category: 'LIFESTYLE' }));
      const theirs = await postListing(t, other, validFields({ name: 'Bookshelf', category: 'LIFESTYLE' }));
      // Refused edits cost nothing: bad input, someone else's listing.
      expect((await patch(seller, a.id, { price: 'free' })).statusCode).toBe(400);
      expect((await patch(seller, theirs.id, { name: 'Mine now' })).statusCode).toBe(403);
      for (let i = 1; i <= SELLING_LIMITS.editsPerHour; i += 1) {
        const res = await patch(seller, i % 2 ? a.id : b.id, { price: 10 + i });
        expect(res.statusCode, `edit ${i}`).toBe(200);
      }
      const jobs = await matchJobs();
      const refused = await patch(seller, a.id, { name: 'Brass desk lamp' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: SELLING_MESSAGES.editsTooMany, code: 'RATE_LIMITED' });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      // Not saved, and no matching queued for it.
      const now = await asStudent(t, seller, { method: 'GET', url: `/listing/${a.id}` });
      expect(now.json()).toMatchObject({ name: 'Desk lamp' });
      expect(await matchJobs()).toBe(jobs);
      expect((await patch(seller, b.id, { name: 'Tall floor lamp' })).statusCode).toBe(429);
      // Another student's budget is their own.
      expect((await patch(other, theirs.id, { name: 'Oak bookshelf' })).statusCode).toBe(200);
    });
  },
);
