import {
  MESSAGES,
  SELLING_MESSAGES,
  type Listing,
  type SavedSearch,
  type WantedPost,
} from '@campus/contract';
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
import { postListing, validFields } from '../listings/testing.js';

/**
 * Saves, saved searches, wanted posts and their matching stay within a campus (features.md §E):
 * another campus's listing, search or post answers like an unknown one, and a new listing is
 * matched only against its own campus's saved searches and wanted posts.
 */
describe.each(dialects)('selling stays within the campus (%s)', (dialect) => {
  let t: TestApp;
  let msuSeller: Student;
  let msuBuyer: Student;
  let uwSeller: Student;
  let uwBuyer: Student;
  let msuListing: Listing;
  let uwListing: Listing;

  const call = (s: Student, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    asStudent(t, s, { method, url, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: TWO_CAMPUSES, jobWorker: false });
    msuSeller = await createStudent(t);
    msuBuyer = await createStudent(t);
    uwSeller = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    uwBuyer = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    msuListing = await postListing(t, msuSeller, validFields({ name: 'Oak bookshelf' }));
    uwListing = await postListing(t, uwSeller, validFields({ name: 'Oak bookshelf' }));
    while ((await t.app.ctx.jobs.runDue()) > 0);
  });
  afterAll(async () => {
    await t.close();
  });

  it("saving another campus's listing answers like an unknown id; its saved list stays its own", async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const other = await call(uwBuyer, method, `/listings/${msuListing.id}/save`);
      const unknown = await call(uwBuyer, method, '/listings/987654321/save');
      expect(other.statusCode).toBe(404);
      expect(other.body).toBe(unknown.body);
      expect(other.json().message).toBe(MESSAGES.listingNotFound);
      expect((await t.app.inject({ method, url: `/listings/${uwListing.id}/save` })).statusCode).toBe(401);
    }
    expect((await call(uwBuyer, 'PUT', `/listings/${uwListing.id}/save`)).statusCode).toBe(200);
    expect((await call(msuBuyer, 'PUT', `/listings/${msuListing.id}/save`)).statusCode).toBe(200);
    const saved = (await call(uwBuyer, 'GET', '/listings/saved')).json() as Listing[];
    expect(saved.map((l) => l.id)).toEqual([uwListing.id]);
    expect((await t.app.inject({ method: 'GET', url: '/listings/saved' })).statusCode).toBe(401);
    // The seller's count is of its own campus's savers.
    const own = (await call(uwSeller, 'GET', `/listing/${uwListing.id}`)).json() as Listing;
    expect(own.saveCount).toBe(1);
  });

  it("another campus's saved search cannot be listed or deleted", async () => {
    const created = await call(uwBuyer, 'POST', '/searches', { query: 'bookshelf' });
    expect(created.statusCode).toBe(201);
    const search = created.json() as SavedSearch;
    expect((await call(msuBuyer, 'GET', '/searches')).json()).toEqual([]);
    const other = await call(msuBuyer, 'DELETE', `/searches/${search.id}`);
    const unknown = await call(msuBuyer, 'DELETE', '/searches/987654321');
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(unknown.body);
    expect(other.json().message).toBe(SELLING_MESSAGES.savedSearchNotFound);
    expect((await t.app.inject({ method: 'GET', url: '/searches' })).statusCode).toBe(401);
    expect(((await call(uwBuyer, 'GET', '/searches')).json() as SavedSearch[]).map((s) => s.id)).toEqual([
      search.id,
    ]);
    expect((await call(uwBuyer, 'DELETE', `/searches/${search.id}`)).statusCode).toBe(200);
  });

  it("wanted posts: each campus lists its own; another campus's id is unknown to the others", async () => {
    const uwPost = (
      await call(uwBuyer, 'POST', '/wanted', { title: 'Bike pump', category: 'OTHER' })
    ).json() as WantedPost;
    const msuPost = (
      await call(msuBuyer, 'POST', '/wanted', { title: 'Bike pump', category: 'OTHER' })
    ).json() as WantedPost;
    const open = (s: Student) =>
      call(s, 'GET', '/wanted').then((r) => (r.json() as WantedPost[]).map((p) => p.id));
    expect(await open(uwSeller)).toEqual([uwPost.id]);
    expect(await open(msuSeller)).toEqual([msuPost.id]);
    expect((await call(uwBuyer, 'GET', '/wanted/self')).json()).toHaveLength(1);
    // Another campus: 404 like an unknown id; the same campus: 403 (the post is public there).
    const other = await call(msuSeller, 'DELETE', `/wanted/${uwPost.id}`);
    const unknown = await call(msuSeller, 'DELETE', '/wanted/987654321');
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(unknown.body);
    expect(other.json().message).toBe(SELLING_MESSAGES.wantedNotFound);
    expect((await call(uwSeller, 'DELETE', `/wanted/${uwPost.id}`)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/wanted' })).statusCode).toBe(401);
    expect(await open(uwBuyer)).toEqual([uwPost.id]);
    for (const [s, id] of [
      [uwBuyer, uwPost.id],
      [msuBuyer, msuPost.id],
    ] as const)
      expect((await call(s, 'DELETE', `/wanted/${id}`)).statusCode).toBe(200);
  });

  it("a wanted post is checked against its poster's campus's prohibited terms", async () => {
    const post = { title: 'Spare dorm key', category: 'OTHER' };
    const uw = await call(uwBuyer, 'POST', '/wanted', post);
    expect(uw.statusCode).toBe(400);
    expect(uw.json().message).toMatch(/dorm keys are not allowed/);
    const msu = await call(msuBuyer, 'POST', '/wanted', post);
    expect(msu.statusCode).toBe(201);
    await call(msuBuyer, 'DELETE', `/wanted/${(msu.json() as WantedPost).id}`);
  });

  it('a new listing matches only the saved searches and wanted posts of its own campus', async () => {
    for (const s of [uwBuyer, msuBuyer]) {
      expect((await call(s, 'POST', '/searches', { query: 'tandem bicycle' })).statusCode).toBe(201);
      const wanted = await call(s, 'POST', '/wanted', { title: 'Tandem bicycle', category: 'OTHER' });
      expect(wanted.statusCode).toBe(201);
    }
    const bike = await postListing(t, msuSeller, validFields({ name: 'Tandem bicycle', category: 'OTHER' }));
    while ((await t.app.ctx.jobs.runDue()) > 0);
    const db = t.app.ctx.db.kysely;
    const savers = await db
      .selectFrom('saved_search_matches')
      .select('user_id')
      .where('listing_id', '=', bike.id)
      .execute();
    const wanters = await db
      .selectFrom('wanted_matches')
      .select('user_id')
      .where('listing_id', '=', bike.id)
      .execute();
    expect(savers.map((r) => r.user_id)).toEqual([msuBuyer.id]);
    expect(wanters.map((r) => r.user_id)).toEqual([msuBuyer.id]);
    // What the seller sees: one student of its campus wants it.
    const own = (await call(msuSeller, 'GET', `/listing/${bike.id}`)).json() as Listing;
    expect(own.wantedCount).toBe(1);
  });
});
