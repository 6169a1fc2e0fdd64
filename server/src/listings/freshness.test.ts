import { FRESHNESS_MESSAGES, MESSAGES, type Listing } from '@campus/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

const DAY = 86_400_000;

/**
 * Freshness (features.md §H): a listing is listed LISTING_DAYS (30 by default) after posting or
 * renewal, then leaves browse, search, filters and profiles, and its seller sees it EXPIRED with
 * Renew. Only the seller renews; a sold listing cannot be renewed.
 */
describe.each(searchEngines)('listings expire and are renewed ($name)', ({ dialect, env: engineEnv }) => {
  let t: TestApp;
  let seller: Student;
  let neighbour: Student;
  let stranger: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { ...TWO_CAMPUSES, ...engineEnv }, jobWorker: false });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    seller = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    neighbour = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    stranger = await createStudent(t);
  });

  /** Moves the clock; sessions last 7 days, so the students log in again (as they would). */
  const later = async (ms: number) => {
    t.clock.advance(ms);
    for (const s of [seller, neighbour, stranger]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email: s.email, password: s.password },
      });
      s.token = res.body;
    }
  };

  const get = async (student: Student, url: string) => {
    const res = await asStudent(t, student, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Listing[];
  };
  const ids = (listings: readonly Listing[]) => listings.map((l) => l.id);
  const renew = (student: Student | null, id: number) =>
    student
      ? asStudent(t, student, { method: 'POST', url: `/listing/${id}/renew` })
      : t.app.inject({ method: 'POST', url: `/listing/${id}/renew` });

  /** Where a buyer finds listings: browse, search, filters (a course page), the seller's profile. */
  async function foundBy(student: Student, listing: Listing): Promise<Record<string, boolean>> {
    const profile = await asStudent(t, student, { method: 'GET', url: `/users/${seller.id}/profile` });
    return {
      browse: ids(await get(student, '/listings')).includes(listing.id),
      search: ids(await get(student, '/listings/search?query=Periodic%20table%20poster')).includes(
        listing.id,
      ),
      filters: ids(await get(student, '/listings/filters?categories=BOOKS&courseCode=CHM141')).includes(
        listing.id,
      ),
      profile: ids((profile.json() as { listings: Listing[] }).listings).includes(listing.id),
    };
  }
  const everywhere = { browse: true, search: true, filters: true, profile: true };
  const nowhere = { browse: false, search: false, filters: false, profile: false };

  const poster = () =>
    postListing(
      t,
      seller,
      validFields({ name: 'Periodic table poster', category: 'BOOKS', courseCode: 'CHM 141' }),
    );

  it('answers expiresAt 30 days after posting; the seller also sees expired: false', async () => {
    const listing = await poster();
    expect(Date.parse(listing.expiresAt as string)).toBe(t.clock.now() + 30 * DAY);
    expect(listing.expired).toBe(false);
    const [asNeighbour] = (await get(neighbour, '/listings')).filter((l) => l.id === listing.id);
    expect(asNeighbour?.expiresAt).toBe(listing.expiresAt);
    // EXPIRED is the seller's to see (a buyer never finds an expired listing anyway).
    expect(asNeighbour).not.toHaveProperty('expired');
  });

  it('leaves browse, search, filters and the profile at the end, even before its expiry job runs', async () => {
    const listing = await poster();
    expect(await foundBy(neighbour, listing)).toEqual(everywhere);
    // A second before the end (browse pages are cached for up to a second, like every change).
    await later(30 * DAY - 1000);
    expect(await foundBy(neighbour, listing)).toEqual(everywhere);
    await later(1000);
    expect(await foundBy(neighbour, listing)).toEqual(nowhere);
    await t.app.ctx.jobs.runDue();
    expect(await foundBy(neighbour, listing)).toEqual(nowhere);
    // The seller still has it, EXPIRED, in My Listings and on its page.
    const [mine] = (await get(seller, '/listings/self?limit=50')).filter((l) => l.id === listing.id);
    expect(mine?.expired).toBe(true);
    const own = await asStudent(t, seller, { method: 'GET', url: `/listing/${listing.id}` });
    expect(own.json()).toMatchObject({ id: listing.id, expired: true });
  });

  it('renewal by the seller lists it again for 30 days from now, found by search at once', async () => {
    const listing = await poster();
    await later(31 * DAY);
    await t.app.ctx.jobs.runDue();
    // The expiry job took it out of the index itself (no search had to stumble on it first).
    const indexed = async () =>
      (await t.app.listings.search.search(seller.campusId, 'Periodic table poster', {}, 50)).map((h) => h.id);
    expect(await indexed()).not.toContain(listing.id);
    expect(await foundBy(neighbour, listing)).toEqual(nowhere);

    const res = await renew(seller, listing.id);
    expect(res.statusCode, res.body).toBe(200);
    const renewed = res.json() as Listing;
    expect(Date.parse(renewed.expiresAt as string)).toBe(t.clock.now() + 30 * DAY);
    expect(renewed.expired).toBe(false);
    expect(await indexed()).toContain(listing.id);
    expect(await foundBy(neighbour, listing)).toEqual(everywhere);

    // The new period ends in its turn.
    await later(30 * DAY);
    await t.app.ctx.jobs.runDue();
    expect(await foundBy(neighbour, listing)).toEqual(nowhere);
  });

  it('refuses renewal to anyone but the seller, and of a sold listing', async () => {
    const listing = await poster();
    await later(31 * DAY);
    const neighbours = await renew(neighbour, listing.id);
    expect(neighbours.statusCode).toBe(403);
    expect(neighbours.json()).toMatchObject({ message: MESSAGES.notYourListing });
    // Another campus's student gets exactly what an unknown id gets.
    const strangers = await renew(stranger, listing.id);
    expect(strangers.statusCode).toBe(404);
    expect(strangers.json()).toEqual((await renew(stranger, 987_654_321)).json());
    expect((await renew(null, listing.id)).statusCode).toBe(401);
    expect((await renew(seller, 0)).statusCode).toBe(400);
    // None of them renewed it.
    expect(await foundBy(neighbour, listing)).toEqual(nowhere);

    const sold = await asStudent(t, seller, { method: 'PUT', url: `/listings/sold/${listing.id}` });
    expect(sold.statusCode).toBe(200);
    const soldRenew = await renew(seller, listing.id);
    expect(soldRenew.statusCode).toBe(409);
    expect(soldRenew.json()).toMatchObject({ message: FRESHNESS_MESSAGES.renewSold });

    // Removed by a moderator (set directly: safety's tests cover how): not back on the market.
    const removed = await poster();
    await t.app.ctx.db.kysely
      .updateTable('listings')
      .set({ moderation: 'REMOVED', moderation_reason: 'Counterfeit' })
      .where('id', '=', removed.id)
      .execute();
    const removedRenew = await renew(seller, removed.id);
    expect(removedRenew.statusCode).toBe(409);
    expect(removedRenew.json()).toMatchObject({ message: FRESHNESS_MESSAGES.renewRemoved });
  });

  it('keeps an edited expired listing out of search (the edit does not renew it)', async () => {
    const listing = await poster();
    await later(30 * DAY);
    await t.app.ctx.jobs.runDue();
    const edit = await asStudent(t, seller, {
      method: 'PATCH',
      url: `/listing/${listing.id}`,
      payload: { description: 'Laminated, A1 size' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await foundBy(neighbour, listing)).toEqual(nowhere);
  });
});
