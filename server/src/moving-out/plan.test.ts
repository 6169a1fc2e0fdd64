import { MOVE_OUT_MESSAGES, type Listing, type MoveOutPlan } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CAMPUSES, TEST_CAMPUS_DOMAINS } from '../../test/campuses.js';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { browseIds, call, dayAhead, feedIds, listing, listingAt } from './testing.js';

/** PUT/GET/DELETE /users/me/move-out, "Must go by", and the campus feed (features.md §H). */
describe.each(dialects)('move-out plan and feed (%s)', (dialect) => {
  let t: TestApp;
  let omar: Student;
  let lena: Student;
  let viewer: Student;
  let husky: Student;
  let omarLamp: number;
  let omarDesk: number;
  let lenaChair: number;

  const season = { from: '2027-04-20', to: '2027-05-15' };

  beforeAll(async () => {
    // MSU has a move-out season; the University of Washington has none.
    const campuses = TEST_CAMPUSES.map((c) => (c.slug === 'msu' ? { ...c, moveOutSeason: season } : c));
    t = await createTestApp({ dialect, jobWorker: false, env: { CAMPUSES: JSON.stringify(campuses) } });
    omar = await createStudent(t, { firstName: 'Omar' });
    lena = await createStudent(t, { firstName: 'Lena' });
    viewer = await createStudent(t, { firstName: 'Vic' });
    husky = await createStudent(t, { firstName: 'Hana', domain: TEST_CAMPUS_DOMAINS.uw });
    omarLamp = await listingAt(t, omar.id, 'Desk lamp', 1500);
    omarDesk = await listingAt(t, omar.id, 'Standing desk', 12000);
    lenaChair = await listingAt(t, lena.id, 'Office chair', 4000);
  });
  afterAll(() => t.close());

  it('answers each campus’s move-out season on GET /public/campus', async () => {
    expect((await call(t, omar, 'GET', '/public/campus')).json().moveOutSeason).toEqual(season);
    expect((await call(t, husky, 'GET', '/public/campus')).json().moveOutSeason).toBeNull();
  });

  it('refuses anonymous callers, bad bodies, past days and days more than 120 ahead', async () => {
    expect((await call(t, null, 'PUT', '/users/me/move-out', { date: dayAhead(t, 10) })).statusCode).toBe(
      401,
    );
    expect((await call(t, null, 'GET', '/users/me/move-out')).statusCode).toBe(401);
    expect((await call(t, null, 'DELETE', '/users/me/move-out')).statusCode).toBe(401);
    expect((await call(t, null, 'GET', '/listings/moving-out')).statusCode).toBe(401);
    const refusals: [unknown, string][] = [
      [{}, MOVE_OUT_MESSAGES.dateInvalid],
      [{ date: '2027-02-30' }, MOVE_OUT_MESSAGES.dateInvalid],
      [{ date: 'next week' }, MOVE_OUT_MESSAGES.dateInvalid],
      [{ date: dayAhead(t, -1) }, MOVE_OUT_MESSAGES.dateNotFuture],
      [{ date: dayAhead(t, 0) }, MOVE_OUT_MESSAGES.dateNotFuture],
      [{ date: dayAhead(t, 122) }, MOVE_OUT_MESSAGES.dateTooFar],
      [{ date: dayAhead(t, 10), floorPercent: 0 }, MOVE_OUT_MESSAGES.floorInvalid],
      [{ date: dayAhead(t, 10), floorPercent: 101 }, MOVE_OUT_MESSAGES.floorInvalid],
      [{ date: dayAhead(t, 10), floorPercent: 12.5 }, MOVE_OUT_MESSAGES.floorInvalid],
      [{ date: dayAhead(t, 10), autoDrop: 'yes' }, MOVE_OUT_MESSAGES.bodyInvalid],
    ];
    for (const [body, message] of refusals) {
      const res = await call(t, omar, 'PUT', '/users/me/move-out', body);
      expect([res.statusCode, res.json().message], JSON.stringify(body)).toEqual([400, message]);
    }
    expect((await call(t, omar, 'GET', '/users/me/move-out')).statusCode).toBe(204);
  });

  it('saves a plan (floor 50 % by default) and the form reads it back', async () => {
    const date = dayAhead(t, 20);
    const res = await call(t, omar, 'PUT', '/users/me/move-out', { date, autoDrop: true });
    expect(res.statusCode).toBe(200);
    const plan: MoveOutPlan = { date, autoDrop: true, floorPercent: 50, thenFree: false };
    expect(res.json()).toEqual(plan);
    expect((await call(t, omar, 'GET', '/users/me/move-out')).json()).toEqual(plan);
    // Each student has their own plan.
    expect((await call(t, lena, 'GET', '/users/me/move-out')).statusCode).toBe(204);
  });

  it('shows "Must go by" on the seller’s available listings, to everyone of the campus', async () => {
    const date = ((await call(t, omar, 'GET', '/users/me/move-out')).json() as MoveOutPlan).date;
    expect((await listing(t, viewer, omarLamp)).mustGoBy).toBe(date);
    expect((await listing(t, omar, omarDesk)).mustGoBy).toBe(date);
    expect((await listing(t, viewer, lenaChair)).mustGoBy).toBeNull();
    // A student of another campus does not see the listing at all.
    expect((await call(t, husky, 'GET', `/listing/${omarLamp}`)).statusCode).toBe(404);
    const browse = (await call(t, viewer, 'GET', '/listings/filters?limit=100')).json() as Listing[];
    expect(browse.find((l) => l.id === omarLamp)?.mustGoBy).toBe(date);
  });

  it('lists the campus feed soonest deadline first, paged like browse', async () => {
    await call(t, lena, 'PUT', '/users/me/move-out', { date: dayAhead(t, 5) });
    expect(await feedIds(t, viewer)).toEqual([lenaChair, omarLamp, omarDesk]);
    const first = await call(t, viewer, 'GET', '/listings/moving-out?limit=2');
    expect((first.json() as Listing[]).map((l) => l.id)).toEqual([lenaChair, omarLamp]);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1];
    expect(next).toBeDefined();
    const second = await call(t, viewer, 'GET', next!.replace(/^https?:\/\/[^/]+/, ''));
    expect((second.json() as Listing[]).map((l) => l.id)).toEqual([omarDesk]);
    expect(second.headers.link).toBeUndefined();
    expect((await call(t, viewer, 'GET', '/listings/moving-out?cursor=zzz')).statusCode).toBe(400);
  });

  it('gives one student’s shelf with sellerId, and refuses a bad one', async () => {
    expect(await feedIds(t, viewer, `?sellerId=${omar.id}`)).toEqual([omarLamp, omarDesk]);
    const bad = await call(t, viewer, 'GET', '/listings/moving-out?sellerId=abc');
    expect([bad.statusCode, bad.json().message]).toEqual([400, MOVE_OUT_MESSAGES.sellerInvalid]);
  });

  it('keeps each campus to its own feed', async () => {
    expect(await feedIds(t, husky)).toEqual([]);
    expect(await feedIds(t, husky, `?sellerId=${omar.id}`)).toEqual([]);
  });

  it('leaves out sellers the viewer blocked, as browse does', async () => {
    expect((await call(t, viewer, 'PUT', `/users/${lena.id}/block`)).statusCode).toBeLessThan(300);
    expect(await feedIds(t, viewer)).toEqual([omarLamp, omarDesk]);
    await call(t, viewer, 'DELETE', `/users/${lena.id}/block`);
    expect(await feedIds(t, viewer)).toEqual([lenaChair, omarLamp, omarDesk]);
  });

  it('leaves out sold listings', async () => {
    expect((await call(t, lena, 'PUT', `/listings/sold/${lenaChair}`)).statusCode).toBe(200);
    expect(await feedIds(t, viewer)).toEqual([omarLamp, omarDesk]);
    expect((await listing(t, viewer, lenaChair)).mustGoBy).toBeNull();
  });

  it('clears a plan: no "Must go by", out of the feed, still in browse', async () => {
    const res = await call(t, omar, 'DELETE', '/users/me/move-out');
    expect(res.statusCode).toBe(204);
    expect((await call(t, omar, 'GET', '/users/me/move-out')).statusCode).toBe(204);
    expect((await listing(t, viewer, omarLamp)).mustGoBy).toBeNull();
    expect(await feedIds(t, viewer)).toEqual([]);
    expect(await browseIds(t, viewer)).toEqual(expect.arrayContaining([omarLamp, omarDesk]));
    // Clearing twice is fine.
    expect((await call(t, omar, 'DELETE', '/users/me/move-out')).statusCode).toBe(204);
  });
});
