import { TRUST_MESSAGES, type DealWithReviews, type Review } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { insertDeal } from './testing.js';

/**
 * Profiles, reviews and deals with two campuses (features.md §E): another campus's student or
 * deal answers exactly like an unknown id; the caller's deals are their campus's.
 */
describe.each(dialects)('trust across campuses (%s)', (dialect) => {
  let t: TestApp;
  let msuSeller: Student;
  let msuBuyer: Student;
  let uwSeller: Student;
  let uwBuyer: Student;
  let msuDeal: number;
  let uwDeal: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: TWO_CAMPUSES });
    const uw = { domain: TEST_CAMPUS_DOMAINS.uw };
    msuSeller = await createStudent(t, { firstName: 'Maya' });
    msuBuyer = await createStudent(t, { firstName: 'Jonah' });
    uwSeller = await createStudent(t, { ...uw, firstName: 'Una' });
    uwBuyer = await createStudent(t, { ...uw, firstName: 'Wren' });
    msuDeal = await insertDeal(t, msuSeller, msuBuyer, { listingName: 'MSU lamp' });
    uwDeal = await insertDeal(t, uwSeller, uwBuyer, { listingName: 'UW lamp' });
    // Both reviewed: the UW seller has a revealed review to read.
    for (const [who, deal] of [
      [uwBuyer, uwDeal],
      [uwSeller, uwDeal],
    ] as const) {
      const res = await asStudent(t, who, {
        method: 'POST',
        url: `/deals/${deal}/review`,
        payload: { stars: 5, text: 'Smooth hand-off' },
      });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => t.close());

  const get = (s: Student | null, url: string) =>
    s ? asStudent(t, s, { method: 'GET', url }) : t.app.inject({ method: 'GET', url });
  const seen = (res: { statusCode: number; json(): unknown }) => ({
    status: res.statusCode,
    body: res.json(),
  });

  it.each([
    ['/users/{id}', ''],
    ['/users/{id}/profile', '/profile'],
    ['/users/{id}/reviews', '/reviews'],
  ])('%s of another campus’s student answers exactly like an unknown id', async (_route, suffix) => {
    const unknown = seen(await get(msuBuyer, `/users/999999${suffix}`));
    expect(unknown.status).toBe(404);
    expect(seen(await get(msuBuyer, `/users/${uwSeller.id}${suffix}`))).toEqual(unknown);
    expect(seen(await get(uwBuyer, `/users/${msuSeller.id}${suffix}`))).toEqual(
      seen(await get(uwBuyer, `/users/999999${suffix}`)),
    );
    expect((await get(null, `/users/${msuSeller.id}${suffix}`)).statusCode).toBe(401);
    // Within a campus, as before.
    expect((await get(msuBuyer, `/users/${msuSeller.id}${suffix}`)).statusCode).toBe(200);
    const own = await get(uwBuyer, `/users/${uwSeller.id}${suffix}`);
    expect(own.statusCode).toBe(200);
    if (suffix === '/reviews') expect((own.json() as Review[]).map((r) => r.author.id)).toEqual([uwBuyer.id]);
  });

  it('POST /deals/{id}/review on another campus’s deal answers exactly like an unknown deal', async () => {
    const review = (s: Student, id: number) =>
      asStudent(t, s, { method: 'POST', url: `/deals/${id}/review`, payload: { stars: 1 } });
    const unknown = seen(await review(msuBuyer, 999_999));
    expect(unknown).toEqual({
      status: 404,
      body: expect.objectContaining({ message: TRUST_MESSAGES.dealNotFound }),
    });
    expect(seen(await review(msuBuyer, uwDeal))).toEqual(unknown);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/deals/${msuDeal}/review`,
      payload: { stars: 1 },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await review(msuSeller, uwDeal)).statusCode).toBe(404);
    // A stranger of the deal's own campus is told it is not theirs (403, as before).
    const stranger = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    expect((await review(stranger, uwDeal)).statusCode).toBe(403);
    expect((await review(msuBuyer, msuDeal)).statusCode).toBe(201);
    // Nothing was written about the other campus's deal.
    const rows = await t.app.ctx.db.kysely
      .selectFrom('reviews')
      .select('reviewer_id')
      .where('deal_id', '=', uwDeal)
      .execute();
    expect(rows.map((r) => r.reviewer_id).sort()).toEqual([uwSeller.id, uwBuyer.id].sort());
  });

  it('GET /deals lists the caller’s campus’s deals only', async () => {
    const mine = async (s: Student) => {
      const res = await get(s, '/deals');
      expect(res.statusCode).toBe(200);
      return (res.json() as DealWithReviews[]).map((d) => d.listingName);
    };
    // A row naming the student but filed under another campus (no entry point writes one): the
    // campus decides, not the ids.
    await insertDeal(t, uwSeller, msuBuyer, { listingName: 'Stray lamp' });
    expect(await mine(msuBuyer)).toEqual(['MSU lamp']);
    expect(await mine(uwBuyer)).toEqual(['UW lamp']);
    expect((await get(null, '/deals')).statusCode).toBe(401);
  });
});
