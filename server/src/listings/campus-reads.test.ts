import { type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  searchEngines,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { postListing, validFields } from './testing.js';

/**
 * Every read of listings answers within the caller's campus (features.md §E): browse, search,
 * filters, sorts, course pages, one listing and the caller's own. Two campuses hold look-alike
 * listings (the same words, the same course), so any read that strays shows the other's ids.
 */
describe.each(searchEngines)(
  'listing reads stay within the campus ($name)',
  ({ dialect, env: engineEnv }) => {
    let t: TestApp;
    let msuSeller: Student;
    let msuBuyer: Student;
    let uwSeller: Student;
    let uwBuyer: Student;
    const ids = { msu: new Set<number>(), uw: new Set<number>() };
    let msuLamp: Listing;
    let uwLamp: Listing;
    let zamboni: Listing;

    const read = async (student: Student, url: string) => {
      const res = await asStudent(t, student, { method: 'GET', url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json() as Listing[];
    };
    const idsOf = (listings: Listing[]) => listings.map((l) => l.id);

    beforeAll(async () => {
      t = await createTestApp({ dialect, env: { ...TWO_CAMPUSES, ...engineEnv } });
      msuSeller = await createStudent(t);
      msuBuyer = await createStudent(t);
      uwSeller = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
      uwBuyer = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
      expect(uwSeller.campusId).not.toBe(msuSeller.campusId);
      const post = async (campus: 'msu' | 'uw', fields: Record<string, string>) => {
        const listing = await postListing(t, campus === 'msu' ? msuSeller : uwSeller, validFields(fields));
        ids[campus].add(listing.id);
        return listing;
      };
      for (const campus of ['msu', 'uw'] as const) {
        const lamp = await post(campus, { name: 'Desk lamp', category: 'LIFESTYLE', price: '12' });
        if (campus === 'msu') msuLamp = lamp;
        else uwLamp = lamp;
        await post(campus, { name: 'Graphing calculator', price: campus === 'msu' ? '40' : '35' });
        await post(campus, {
          name: 'Intro to algorithms',
          category: 'BOOKS',
          courseCode: 'CSE 101',
          isbn: '9780262033848',
          condition: 'GOOD',
          price: campus === 'msu' ? '30' : '20',
        });
      }
      // A word only one campus has.
      zamboni = await post('msu', { name: 'Zamboni model kit', category: 'OTHER', price: '9' });
    });
    afterAll(async () => {
      await t.close();
    });

    it.each([
      '/listings',
      '/listings/recent',
      '/listings/LIFESTYLE',
      '/listings/filters?categories=BOOKS,ELECTRONICS,LIFESTYLE',
      '/listings/filters?sort=price_asc',
      '/listings/filters?sort=price_desc&priceMin=1&priceMax=100',
      '/listings/filters?courseCode=CSE101&sort=price_asc',
      '/listings/filters?isbn=9780262033848',
      '/listings/filters?conditions=GOOD',
      '/listings/search?query=lamp',
      '/listings/search?query=calculator&sort=price_asc',
      '/listings/search?query=desk&sort=newest',
      '/listings/search?query=CSE101',
      '/listings/search?query=&categories=BOOKS',
    ])('%s shows each campus only its own listings', async (url) => {
      const msu = idsOf(await read(msuBuyer, url));
      const uw = idsOf(await read(uwBuyer, url));
      expect(msu.length).toBeGreaterThan(0);
      expect(uw.length).toBeGreaterThan(0);
      expect(
        msu.every((id) => ids.msu.has(id)),
        `msu saw ${msu}`,
      ).toBe(true);
      expect(
        uw.every((id) => ids.uw.has(id)),
        `uw saw ${uw}`,
      ).toBe(true);
    });

    it('a uw search for a word only an msu listing has finds nothing, in any order', async () => {
      for (const sort of ['relevance', 'newest', 'price_asc', 'price_desc']) {
        expect(await read(uwBuyer, `/listings/search?query=zamboni&sort=${sort}`)).toEqual([]);
        expect(idsOf(await read(msuBuyer, `/listings/search?query=zamboni&sort=${sort}`))).toEqual([
          zamboni.id,
        ]);
      }
    });

    it("the course page lists the campus's own books for the course, cheapest first", async () => {
      const msu = await read(msuBuyer, '/listings/filters?courseCode=CSE101&sort=price_asc');
      const uw = await read(uwBuyer, '/listings/filters?courseCode=cse-101&sort=price_asc');
      expect(msu.map((l) => [l.courseCode, l.price])).toEqual([['CSE101', 30]]);
      expect(uw.map((l) => [l.courseCode, l.price])).toEqual([['CSE101', 20]]);
    });

    it("GET /listing/{id}: another campus's listing answers exactly like an unknown id", async () => {
      const own = await asStudent(t, uwBuyer, { method: 'GET', url: `/listing/${uwLamp.id}` });
      expect(own.statusCode).toBe(200);
      expect((own.json() as Listing).name).toBe('Desk lamp');
      // Read by its own campus first, so the hot cache holds it: the cache is no way round either.
      await asStudent(t, msuBuyer, { method: 'GET', url: `/listing/${msuLamp.id}` });
      const other = await asStudent(t, uwBuyer, { method: 'GET', url: `/listing/${msuLamp.id}` });
      const unknown = await asStudent(t, uwBuyer, { method: 'GET', url: '/listing/987654321' });
      expect(other.statusCode).toBe(404);
      expect(other.body).toBe(unknown.body);
      const anonymous = await t.app.inject({ method: 'GET', url: `/listing/${uwLamp.id}` });
      expect(anonymous.statusCode).toBe(401);
    });

    it("/listings/self holds the caller's own listings only", async () => {
      expect(new Set(idsOf(await read(uwSeller, '/listings/self')))).toEqual(ids.uw);
      expect(await read(uwBuyer, '/listings/self')).toEqual([]);
    });

    it('every read refuses an anonymous caller', async () => {
      for (const url of [
        '/listings',
        '/listings/recent',
        '/listings/BOOKS',
        '/listings/filters?courseCode=CSE101',
        '/listings/search?query=lamp',
        '/listings/self',
        `/listing/${msuLamp.id}`,
      ]) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      }
    });

    it("the hot cache keeps each campus's pages apart, and a write clears only its campus's", async () => {
      const cache = t.app.listings.cache;
      cache.listingsChanged();
      const msuPage = await read(msuBuyer, '/listings');
      const uwPage = await read(uwBuyer, '/listings');
      // The second read of each is the cached page: still each campus's own.
      expect(await read(msuBuyer, '/listings')).toEqual(msuPage);
      expect(await read(uwBuyer, '/listings')).toEqual(uwPage);
      expect(idsOf(uwPage).every((id) => ids.uw.has(id))).toBe(true);
      expect(cache.sizeOf(msuSeller.campusId)).toBe(1);
      expect(cache.sizeOf(uwSeller.campusId)).toBe(1);
      const edit = await asStudent(t, uwSeller, {
        method: 'PATCH',
        url: `/listing/${uwLamp.id}`,
        payload: { description: 'Warm white, dimmable.' },
      });
      expect(edit.statusCode).toBe(200);
      expect(cache.sizeOf(uwSeller.campusId)).toBe(0);
      expect(cache.sizeOf(msuSeller.campusId)).toBe(1);
    });
  },
);
