import {
  MESSAGES,
  SELLING_MESSAGES,
  type Listing,
  type SavedSearch,
  type WantedPost,
} from '@campus/contract';
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

const DAY = 24 * 60 * 60 * 1000;

describe.each(dialects)('favourites, saved searches, wanted posts and matching (%s)', (dialect) => {
  let t: TestApp;
  let seller: Student;
  let buyer: Student;
  let third: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    seller = await createStudent(t);
    buyer = await createStudent(t);
    third = await createStudent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Moving the clock by weeks expires tokens: log in again. */
  const relogin = async (...students: Student[]) => {
    for (const s of students) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email: s.email, password: s.password },
      });
      s.token = res.body;
    }
  };
  const get = (s: Student, url: string) => asStudent(t, s, { method: 'GET', url });
  const db = () => t.app.ctx.db.kysely;

  describe('favourites', () => {
    it('PUT/DELETE save is idempotent; savedByMe on every answer; saveCount only for the seller', async () => {
      const listing = await postListing(t, seller, validFields({ name: 'Heart me' }));
      // Warm the hot cache first: personalisation must happen after it.
      expect((await get(buyer, '/listings')).json()[0]).toMatchObject({ id: listing.id, savedByMe: false });
      for (let i = 0; i < 2; i += 1) {
        const res = await asStudent(t, buyer, { method: 'PUT', url: `/listings/${listing.id}/save` });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ id: listing.id, savedByMe: true });
      }
      const browse = (await get(buyer, '/listings')).json() as Listing[];
      expect(browse.find((l) => l.id === listing.id)).toMatchObject({ savedByMe: true });
      expect(browse.find((l) => l.id === listing.id)).not.toHaveProperty('saveCount');
      expect((await get(buyer, `/listing/${listing.id}`)).json()).toMatchObject({ savedByMe: true });
      expect((await get(third, `/listing/${listing.id}`)).json()).toMatchObject({ savedByMe: false });
      expect((await get(third, `/listing/${listing.id}`)).json()).not.toHaveProperty('saveCount');
      await asStudent(t, third, { method: 'PUT', url: `/listings/${listing.id}/save` });
      const own = (await get(seller, `/listing/${listing.id}`)).json();
      expect(own).toMatchObject({ savedByMe: false, saveCount: 2, wantedCount: 0 });
      const ownBrowse = (await get(seller, '/listings')).json() as Listing[];
      expect(ownBrowse.find((l) => l.id === listing.id)).toMatchObject({ saveCount: 2 });
      const search = (await get(buyer, '/listings/search?query=heart')).json() as Listing[];
      expect(search[0]).toMatchObject({ id: listing.id, savedByMe: true });

      for (let i = 0; i < 2; i += 1) {
        const res = await asStudent(t, buyer, { method: 'DELETE', url: `/listings/${listing.id}/save` });
        expect(res.json()).toEqual({ id: listing.id, savedByMe: false });
      }
      expect((await get(buyer, `/listing/${listing.id}`)).json()).toMatchObject({ savedByMe: false });
      expect((await get(seller, `/listing/${listing.id}`)).json()).toMatchObject({ saveCount: 1 });
    });

    it('refuses own listings (400), unknown (404), bad ids (400) and anonymous callers (401)', async () => {
      const listing = await postListing(t, seller, validFields({ name: 'Own' }));
      const own = await asStudent(t, seller, { method: 'PUT', url: `/listings/${listing.id}/save` });
      expect(own.statusCode).toBe(400);
      expect(own.json().message).toBe(SELLING_MESSAGES.saveOwnListing);
      expect((await asStudent(t, buyer, { method: 'PUT', url: '/listings/999999/save' })).statusCode).toBe(
        404,
      );
      expect((await asStudent(t, buyer, { method: 'PUT', url: '/listings/abc/save' })).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'PUT', url: `/listings/${listing.id}/save` })).statusCode).toBe(
        401,
      );
      expect((await t.app.inject({ method: 'GET', url: '/listings/saved' })).statusCode).toBe(401);
    });

    it("GET /listings/saved lists the caller's saves, newest first, paged, sold ones included", async () => {
      const s = await createStudent(t);
      const items: Listing[] = [];
      for (let i = 0; i < 3; i += 1)
        items.push(await postListing(t, seller, validFields({ name: `Saved ${i}` })));
      for (const l of items) await asStudent(t, s, { method: 'PUT', url: `/listings/${l.id}/save` });
      await asStudent(t, seller, { method: 'PUT', url: `/listings/sold/${items[0]!.id}` });
      const first = await get(s, '/listings/saved?limit=2');
      expect((first.json() as Listing[]).map((l) => l.id)).toEqual([items[2]!.id, items[1]!.id]);
      expect((first.json() as Listing[]).every((l) => l.savedByMe)).toBe(true);
      const link = /^<([^>]+)>/.exec(String(first.headers.link))?.[1] as string;
      const second = (await get(s, link)).json() as Listing[];
      expect(second.map((l) => [l.id, l.isSold])).toEqual([[items[0]!.id, true]]);
      expect((await get(third, '/listings/saved')).json()).not.toContainEqual(
        expect.objectContaining({ id: items[0]!.id }),
      );
    });
  });

  describe('saved searches', () => {
    it('creates, lists and deletes; at most 20; refuses empty and bad input', async () => {
      const s = await createStudent(t);
      const res = await asStudent(t, s, {
        method: 'POST',
        url: '/searches',
        payload: { query: '  desk   lamp ', categories: ['lifestyle'], priceMax: '30', conditions: ['GOOD'] },
      });
      expect(res.statusCode).toBe(201);
      const created = res.json() as SavedSearch;
      expect(created).toMatchObject({
        query: 'desk lamp',
        categories: ['LIFESTYLE'],
        priceMin: null,
        priceMax: 30,
        conditions: ['GOOD'],
        courseCode: null,
      });
      const bad: Array<[unknown, string]> = [
        [{}, SELLING_MESSAGES.savedSearchEmpty],
        [{ categories: ['CARS'] }, MESSAGES.categoryInvalid],
        [{ conditions: ['MINT'] }, SELLING_MESSAGES.conditionInvalid],
        [{ priceMin: 10, priceMax: 5 }, MESSAGES.invalidPriceFilter],
        [{ courseCode: '12' }, SELLING_MESSAGES.courseCodeInvalid],
        [{ query: 'x'.repeat(101) }, MESSAGES.searchQueryTooLong],
      ];
      for (const [payload, message] of bad) {
        const r = await asStudent(t, s, { method: 'POST', url: '/searches', payload: payload as object });
        expect(r.statusCode, JSON.stringify(payload)).toBe(400);
        expect(r.json().message).toBe(message);
      }
      for (let i = 1; i < 20; i += 1) {
        const r = await asStudent(t, s, {
          method: 'POST',
          url: '/searches',
          payload: { query: `thing ${i}` },
        });
        expect(r.statusCode).toBe(201);
      }
      const full = await asStudent(t, s, {
        method: 'POST',
        url: '/searches',
        payload: { query: 'one more' },
      });
      expect(full.statusCode).toBe(409);
      expect(full.json().message).toBe(SELLING_MESSAGES.savedSearchesFull);
      expect((await get(s, '/searches')).json()).toHaveLength(20);
      expect((await get(third, '/searches')).json()).toEqual([]);
      // Someone else's saved search is not found for them; the owner deletes it.
      const theirs = await asStudent(t, third, { method: 'DELETE', url: `/searches/${created.id}` });
      expect(theirs.statusCode).toBe(404);
      expect((await asStudent(t, s, { method: 'DELETE', url: `/searches/${created.id}` })).statusCode).toBe(
        200,
      );
      expect((await asStudent(t, s, { method: 'DELETE', url: `/searches/${created.id}` })).statusCode).toBe(
        404,
      );
      expect((await t.app.inject({ method: 'GET', url: '/searches' })).statusCode).toBe(401);
      const room = await asStudent(t, s, {
        method: 'POST',
        url: '/searches',
        payload: { query: 'one more' },
      });
      expect(room.statusCode).toBe(201);
    });
  });

  describe('wanted posts', () => {
    it("creates open posts, lists everyone's newest first by category, 10 open at most, expire after 30 days", async () => {
      const s = await createStudent(t);
      const res = await asStudent(t, s, {
        method: 'POST',
        url: '/wanted',
        payload: { title: 'Linear algebra textbook', category: 'books', maxPrice: 25, courseCode: 'mth 309' },
      });
      expect(res.statusCode).toBe(201);
      const post = res.json() as WantedPost;
      expect(post).toMatchObject({
        title: 'Linear algebra textbook',
        description: '',
        category: 'BOOKS',
        maxPrice: 25,
        courseCode: 'MTH309',
        author: { id: s.id },
        isOpen: true,
      });
      expect(Date.parse(post.expiresAt) - Date.parse(post.createdAt)).toBe(30 * DAY);
      for (let i = 1; i < 10; i += 1) {
        const r = await asStudent(t, s, {
          method: 'POST',
          url: '/wanted',
          payload: { title: `Lamp ${i}`, category: 'LIFESTYLE' },
        });
        expect(r.statusCode).toBe(201);
      }
      const full = await asStudent(t, s, {
        method: 'POST',
        url: '/wanted',
        payload: { title: 'Eleventh', category: 'OTHER' },
      });
      expect(full.statusCode).toBe(409);
      expect(full.json().message).toBe(SELLING_MESSAGES.wantedFull);
      const books = (await get(third, '/wanted?categories=BOOKS')).json() as WantedPost[];
      expect(books.map((w) => w.id)).toContain(post.id);
      expect(books.every((w) => w.category === 'BOOKS')).toBe(true);
      const page = await get(third, '/wanted?limit=3');
      expect(page.json()).toHaveLength(3);
      expect(page.headers.link).toMatch(/rel="next"/);
      // Others may not delete it; the author may.
      const del = await asStudent(t, third, { method: 'DELETE', url: `/wanted/${post.id}` });
      expect(del.statusCode).toBe(403);
      expect((await asStudent(t, s, { method: 'DELETE', url: `/wanted/${post.id}` })).statusCode).toBe(200);
      expect((await asStudent(t, s, { method: 'DELETE', url: `/wanted/${post.id}` })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/wanted' })).statusCode).toBe(401);
      // 30 days later the rest expire: gone from GET /wanted, still in /wanted/self (closed), room again.
      t.clock.advance(30 * DAY + 1);
      await relogin(s, third, seller, buyer);
      expect(((await get(third, '/wanted')).json() as WantedPost[]).some((w) => w.author.id === s.id)).toBe(
        false,
      );
      const mine = (await get(s, '/wanted/self')).json() as WantedPost[];
      expect(mine).toHaveLength(9);
      expect(mine.every((w) => !w.isOpen)).toBe(true);
      const again = await asStudent(t, s, {
        method: 'POST',
        url: '/wanted',
        payload: { title: 'Fresh', category: 'OTHER' },
      });
      expect(again.statusCode).toBe(201);
    });

    it('refuses a missing title or category, bad prices and course codes outside books', async () => {
      const cases: Array<[unknown, string]> = [
        [{ category: 'BOOKS' }, SELLING_MESSAGES.wantedTitleRequired],
        [{ title: 'x'.repeat(121), category: 'BOOKS' }, SELLING_MESSAGES.wantedTitleTooLong],
        [{ title: 'Desk' }, MESSAGES.listingCategoryRequired],
        [{ title: 'Desk', category: 'CARS' }, MESSAGES.categoryInvalid],
        [{ title: 'Desk', category: 'OTHER', maxPrice: '1.234' }, MESSAGES.priceInvalid],
        [{ title: 'Desk', category: 'OTHER', courseCode: 'CSE 232' }, SELLING_MESSAGES.textbookOnly],
      ];
      for (const [payload, message] of cases) {
        const r = await asStudent(t, third, { method: 'POST', url: '/wanted', payload: payload as object });
        expect(r.statusCode, JSON.stringify(payload)).toBe(400);
        expect(r.json().message).toBe(message);
      }
    });
  });

  describe('matching new and edited listings', () => {
    it('records one saved-search match per saver per listing, never twice, never for the seller', async () => {
      const saver = await createStudent(t);
      const sellerB = await createStudent(t);
      for (const payload of [
        { query: 'kayak', categories: ['OTHER'], priceMax: 300 },
        { query: 'kayak paddle' },
      ]) {
        await asStudent(t, saver, { method: 'POST', url: '/searches', payload });
      }
      await asStudent(t, sellerB, { method: 'POST', url: '/searches', payload: { query: 'kayak' } });
      const tooDear = await postListing(
        t,
        sellerB,
        validFields({ name: 'Kayak', category: 'LIFESTYLE', price: '400' }),
      );
      const kayak = await postListing(
        t,
        sellerB,
        validFields({ name: 'Sea kayak', category: 'OTHER', price: '250' }),
      );
      await postListing(t, sellerB, validFields({ name: 'Bicycle', category: 'OTHER', price: '50' }));
      // Matching is a job enqueued with the listing (match-job.test.ts).
      await t.app.ctx.jobs.runDue();
      const matches = async () =>
        db()
          .selectFrom('saved_search_matches')
          .select(['user_id', 'listing_id'])
          .where('user_id', 'in', [saver.id, sellerB.id])
          .orderBy('listing_id')
          .execute();
      // tooDear: over the first search's price, and "kayak paddle" is too far from "Kayak".
      expect(await matches()).toEqual([{ user_id: saver.id, listing_id: kayak.id }]);
      expect(tooDear.id).toBeLessThan(kayak.id);
      // An edit that still matches records nothing new; an edit that starts matching does.
      await asStudent(t, sellerB, { method: 'PATCH', url: `/listing/${kayak.id}`, payload: { price: 240 } });
      const bike = (
        await asStudent(t, sellerB, { method: 'GET', url: '/listings/self?limit=1' })
      ).json()[0] as Listing;
      await asStudent(t, sellerB, {
        method: 'PATCH',
        url: `/listing/${bike.id}`,
        payload: { name: 'Kayak paddle' },
      });
      await t.app.ctx.jobs.runDue();
      expect(await matches()).toEqual([
        { user_id: saver.id, listing_id: kayak.id },
        { user_id: saver.id, listing_id: bike.id },
      ]);
    });

    it('matches wanted posts by title, category, max price and course; counts students looking', async () => {
      const w1 = await createStudent(t);
      const w2 = await createStudent(t);
      await asStudent(t, w1, {
        method: 'POST',
        url: '/wanted',
        payload: { title: 'Organic chemistry', category: 'BOOKS', courseCode: 'CEM 251' },
      });
      await asStudent(t, w2, {
        method: 'POST',
        url: '/wanted',
        payload: { title: 'Organic chemistry book', category: 'BOOKS', maxPrice: 50 },
      });
      await asStudent(t, w2, {
        method: 'POST',
        url: '/wanted',
        payload: { title: 'Organic chemistry', category: 'BOOKS' },
      });
      const book = await postListing(
        t,
        seller,
        validFields({
          name: 'Organic Chemistry 9th ed.',
          category: 'BOOKS',
          price: '40',
          courseCode: 'CEM251',
        }),
      );
      const other = await postListing(
        t,
        seller,
        validFields({ name: 'Organic chemistry', category: 'BOOKS', courseCode: 'CEM252', price: '80' }),
      );
      await t.app.ctx.jobs.runDue();
      const rows = await db()
        .selectFrom('wanted_matches')
        .select(['user_id', 'listing_id'])
        .where('listing_id', 'in', [book.id, other.id])
        .execute();
      expect(rows.map((r) => `${r.user_id}:${r.listing_id}`).sort()).toEqual(
        [`${w1.id}:${book.id}`, `${w2.id}:${book.id}`, `${w2.id}:${other.id}`].sort(),
      );
      expect((await get(seller, `/listing/${book.id}`)).json()).toMatchObject({ wantedCount: 2 });
      expect((await get(w1, `/listing/${book.id}`)).json()).not.toHaveProperty('wantedCount');
      t.clock.advance(31 * DAY);
      await relogin(seller, buyer, third);
      expect((await get(seller, `/listing/${book.id}`)).json()).toMatchObject({ wantedCount: 0 });
    });
  });
});
