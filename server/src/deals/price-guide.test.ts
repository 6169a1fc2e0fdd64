import { PRICE_GUIDE_MESSAGES, type PriceGuide } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  campusOfUser,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { postListing, validFields } from '../listings/testing.js';

const DAY = 86_400_000;
const CLRS = '9780262033848';

/**
 * The price guide (features.md §H): low, median and high of what the caller's campus paid in
 * hand-off-confirmed deals over the last 365 days, for the same book (ISBN or course) or the same
 * kind of item (category, condition, a name the search matches); 204 under 3 such deals.
 */
describe.each(dialects)('GET /listings/price-guide (%s)', (dialect) => {
  let t: TestApp;
  let seller: Student;
  let buyer: Student;
  let other: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { ...TWO_CAMPUSES, DAILY_LISTINGS_MAX: '500' } });
    seller = await createStudent(t);
    buyer = await createStudent(t);
    other = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * A listing and the deal a right hand-off code records for it. The deal row is written directly:
   * these tests are about what the guide makes of deals, deals/handoff.ts tests how one is made.
   */
  async function sold(
    fields: Record<string, string>,
    priceCents: number,
    options: { daysAgo?: number; by?: Student; to?: Student } = {},
  ): Promise<void> {
    const by = options.by ?? seller;
    const listing = await postListing(t, by, validFields(fields));
    await t.app.ctx.db.kysely
      .insertInto('deals')
      .values({
        listing_id: listing.id,
        listing_name: listing.name,
        seller_id: by.id,
        buyer_id: (options.to ?? buyer).id,
        price_cents: priceCents,
        completed_at: t.clock.now() - (options.daysAgo ?? 1) * DAY,
        offer_id: null,
        campus_id: await campusOfUser(t, by.id),
      })
      .execute();
  }

  const guide = (student: Student | null, query: string) =>
    student
      ? asStudent(t, student, { method: 'GET', url: `/listings/price-guide?${query}` })
      : t.app.inject({ method: 'GET', url: `/listings/price-guide?${query}` });

  const lamp = (name = 'Desk lamp', condition = 'GOOD') => ({ name, category: 'LIFESTYLE', condition });

  it('answers 204 under 3 matching deals, then low, median and high', async () => {
    const q = 'category=LIFESTYLE&condition=GOOD&query=desk%20lamp';
    await sold(lamp(), 1000);
    await sold(lamp('Desk lamp with USB port'), 3000);
    const two = await guide(buyer, q);
    expect(two.statusCode).toBe(204);
    expect(two.body).toBe('');

    await sold(lamp('IKEA desk lamp'), 1500);
    const three = await guide(buyer, q);
    expect(three.statusCode, three.body).toBe(200);
    expect(three.json()).toEqual({ low: 10, median: 15, high: 30, count: 3 } satisfies PriceGuide);

    // An even count: the middle pair's mean.
    await sold(lamp('Desk lamp, black'), 2000);
    expect((await guide(buyer, q)).json()).toEqual({ low: 10, median: 17.5, high: 30, count: 4 });
  });

  it('counts only the same category, condition and a name the search matches', async () => {
    await sold(lamp('Floor fan'), 900);
    await sold(lamp('Desk lamp', 'FAIR'), 100);
    await sold({ name: 'Desk lamp', category: 'ELECTRONICS', condition: 'GOOD' }, 200);
    // Same deals as above: the lamps in GOOD condition only.
    const res = await guide(buyer, 'category=LIFESTYLE&condition=GOOD&query=desk%20lamp');
    expect(res.json()).toMatchObject({ low: 10, high: 30, count: 4 });
    // A typo still finds them, as search would.
    expect((await guide(buyer, 'category=LIFESTYLE&condition=GOOD&query=dsk%20lamp')).json()).toMatchObject({
      count: 4,
    });
    // No condition chosen yet: every lamp of the category.
    expect((await guide(buyer, 'category=lifestyle&query=desk%20lamp')).json()).toMatchObject({
      low: 1,
      count: 5,
    });
  });

  it('matches books by ISBN or by course code, whatever their names', async () => {
    const book = (name: string, extra: Record<string, string>) => ({ name, category: 'BOOKS', ...extra });
    await sold(book('Intro to Algorithms', { isbn: CLRS }), 4000);
    await sold(book('CLRS 3rd edition', { isbn: CLRS, courseCode: 'CSE 331' }), 5000);
    await sold(book('Algorithms textbook', { courseCode: 'CSE331' }), 2500);
    await sold(book('Calculus', { courseCode: 'MTH 132' }), 9900);
    expect((await guide(buyer, `isbn=${CLRS}`)).statusCode).toBe(204);
    expect((await guide(buyer, `category=BOOKS&isbn=978-0-262-03384-8&courseCode=cse%20331`)).json()).toEqual(
      {
        low: 25,
        median: 40,
        high: 50,
        count: 3,
      },
    );
    // The course alone has two deals (the ISBN-only one is not of it): no guide yet.
    expect((await guide(buyer, 'courseCode=CSE331')).statusCode).toBe(204);
    await sold(book('Algorithms, used', { courseCode: 'CSE331' }), 3000);
    expect((await guide(buyer, 'courseCode=CSE331')).json()).toEqual({
      low: 25,
      median: 30,
      high: 50,
      count: 3,
    });
  });

  it('leaves out deals older than 365 days and deals at no price (free items)', async () => {
    const q = 'category=OTHER&query=bike%20lock';
    const lock = { name: 'Bike lock', category: 'OTHER' };
    await sold(lock, 1200, { daysAgo: 364 });
    await sold(lock, 1800, { daysAgo: 100 });
    await sold(lock, 5000, { daysAgo: 366 });
    await sold(lock, 0, { daysAgo: 2 });
    expect((await guide(buyer, q)).statusCode).toBe(204);
    await sold(lock, 1500, { daysAgo: 0 });
    expect((await guide(buyer, q)).json()).toEqual({ low: 12, median: 15, high: 18, count: 3 });
  });

  it("counts only the caller's campus", async () => {
    const q = 'category=CLOTHING&query=yoga%20mat';
    const uwSeller = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    for (const cents of [100, 200, 300]) {
      await sold({ name: 'Yoga mat', category: 'CLOTHING' }, cents, { by: uwSeller, to: other });
    }
    expect((await guide(other, q)).json()).toMatchObject({ count: 3 });
    // The same query at the other campus sees none of them.
    expect((await guide(buyer, q)).statusCode).toBe(204);
    expect((await guide(seller, q)).statusCode).toBe(204);
  });

  it('is for logged-in students only, and says what is missing', async () => {
    expect((await guide(null, 'category=LIFESTYLE&query=lamp')).statusCode).toBe(401);
    const cases: Array<[string, string]> = [
      ['query=lamp', PRICE_GUIDE_MESSAGES.categoryRequired],
      ['category=LIFESTYLE', PRICE_GUIDE_MESSAGES.queryRequired],
      ['category=FURNITURE&query=lamp', PRICE_GUIDE_MESSAGES.categoryInvalid],
      ['isbn=12345', 'ISBN'],
      [`category=LIFESTYLE&query=${'a'.repeat(121)}`, PRICE_GUIDE_MESSAGES.queryTooLong],
    ];
    for (const [query, message] of cases) {
      const res = await guide(buyer, query);
      expect(res.statusCode, query).toBe(400);
      expect((res.json() as { message: string }).message, query).toContain(message);
    }
  });
});
