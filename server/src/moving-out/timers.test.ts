import { dayStartMs, type MoveOutPlan } from '@campus/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { campusOfUser } from '../../test/campuses.js';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { inCampus } from '../db/campus-scope.js';
import { JOB_PRICE_STEP } from './index.js';
import {
  DAY,
  DETROIT,
  browseIds,
  call,
  dayAhead,
  feedIds,
  listing,
  listingAt,
  notices,
  runMoveOutJobs,
} from './testing.js';

const MINUTE = 60_000;

/**
 * The timers of a move-out plan, driven by the injected clock (features.md §H): 20 % off seven days
 * before the date, 40 % two days before, never below the floor, and at the date what is still
 * available leaves browse (or turns free). Each re-checks the plan and the listing when it runs.
 */
describe.each(dialects)('move-out timers (%s)', (dialect) => {
  let t: TestApp;
  let seller: Student;
  let saver: Student;
  const start = Date.now();

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    saver = await createStudent(t, { firstName: 'Sam' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Each test: a new seller and the clock back at the start, so plans do not meet.
    t.clock.nowMs = start;
    seller = await createStudent(t, { firstName: 'Omar' });
  });

  const price = async (id: number) => (await listing(t, saver, id)).price;
  const plan = (body: Partial<MoveOutPlan> & { date: string }) =>
    call(t, seller, 'PUT', '/users/me/move-out', body).then((r) => {
      if (r.statusCode !== 200) throw new Error(r.body);
      return r.json() as MoveOutPlan;
    });
  /** Moves the clock to `daysBefore` days before the plan's date (plus a minute) and runs due timers. */
  const at = async (date: string, daysBefore: number) => {
    t.clock.nowMs = dayStartMs(date, DETROIT) - daysBefore * DAY + MINUTE;
    await runMoveOutJobs(t);
  };

  it('lowers 20 % seven days before and 40 % two days before, telling savers (PRICE_DROP)', async () => {
    const desk = await listingAt(t, seller.id, 'Standing desk', 10000);
    const lamp = await listingAt(t, seller.id, 'Desk lamp', 1500);
    expect((await call(t, saver, 'PUT', `/listings/${desk}/save`)).statusCode).toBe(200);
    const date = dayAhead(t, 12);
    await plan({ date, autoDrop: true });
    await runMoveOutJobs(t);
    expect([await price(desk), await price(lamp)]).toEqual([100, 15]);
    await at(date, 7 + 1);
    expect(await price(desk)).toBe(100);
    await at(date, 7);
    expect([await price(desk), await price(lamp)]).toEqual([80, 12]);
    const drops = await notices(t, saver, 'PRICE_DROP');
    expect(drops).toHaveLength(1);
    expect(drops[0]!.body).toMatch(/\$80/);
    await at(date, 2);
    expect([await price(desk), await price(lamp)]).toEqual([60, 9]);
    // Running the timers again changes nothing (each step once per listing).
    await runMoveOutJobs(t);
    expect([await price(desk), await price(lamp)]).toEqual([60, 9]);
  });

  it('never goes below floorPercent of the original price', async () => {
    const desk = await listingAt(t, seller.id, 'Bookshelf', 10000);
    const date = dayAhead(t, 12);
    await plan({ date, autoDrop: true, floorPercent: 70 });
    await at(date, 7);
    expect(await price(desk)).toBe(80);
    await at(date, 2);
    expect(await price(desk)).toBe(70);
    const high = await listingAt(t, seller.id, 'Rug', 5000);
    await plan({ date, autoDrop: true, floorPercent: 90 });
    await runMoveOutJobs(t);
    // Both steps are due at once on the new plan; neither goes under 90 % ($45).
    expect(await price(high)).toBe(45);
  });

  it('does nothing without autoDrop but still takes listings off the market at the date', async () => {
    const desk = await listingAt(t, seller.id, 'Microwave', 4000);
    const date = dayAhead(t, 12);
    await plan({ date });
    await at(date, 2);
    expect(await price(desk)).toBe(40);
    expect(await browseIds(t, saver)).toContain(desk);
    await at(date, 0);
    expect(await browseIds(t, saver)).not.toContain(desk);
    expect(await feedIds(t, saver)).not.toContain(desk);
    // It still opens by id (a chat links to it), without "Must go by"; the plan is done.
    expect((await listing(t, saver, desk)).mustGoBy).toBeNull();
    expect((await call(t, seller, 'GET', '/users/me/move-out')).statusCode).toBe(204);
  });

  it('thenFree: at the date an unsold listing turns free, its claim window opening then', async () => {
    const desk = await listingAt(t, seller.id, 'Fan', 2000);
    const date = dayAhead(t, 3);
    await plan({ date, thenFree: true });
    await at(date, 0);
    const row = await listing(t, saver, desk);
    expect([row.free, row.price, row.status]).toEqual([true, 0, 'AVAILABLE']);
    expect(Date.parse(row.claimsCloseAt!)).toBe(t.clock.nowMs + 12 * 3_600_000);
    expect(await browseIds(t, saver)).toContain(desk);
    const claim = await call(t, saver, 'POST', `/listings/${desk}/claims`, {
      note: 'I can pick it up today',
    });
    expect(claim.statusCode).toBe(201);
  });

  it('leaves alone what the seller sold meanwhile', async () => {
    const sold = await listingAt(t, seller.id, 'Kettle', 3000);
    const date = dayAhead(t, 12);
    await plan({ date, autoDrop: true });
    expect((await call(t, seller, 'PUT', `/listings/sold/${sold}`)).statusCode).toBe(200);
    await at(date, 7);
    expect(await price(sold)).toBe(30);
    await at(date, 0);
    const row = await listing(t, saver, sold);
    expect([row.status, row.price]).toEqual(['SOLD', 30]);
  });

  it('respects a price the seller set after a step', async () => {
    const desk = await listingAt(t, seller.id, 'Monitor', 10000);
    const date = dayAhead(t, 12);
    await plan({ date, autoDrop: true });
    await at(date, 7);
    expect(await price(desk)).toBe(80);
    const edit = await call(t, seller, 'PATCH', `/listing/${desk}`, { price: 95 });
    expect(edit.statusCode).toBe(200);
    await at(date, 2);
    expect(await price(desk)).toBe(95);
  });

  it('follows a moved date: the old timers do nothing, the new ones run at the new date', async () => {
    const desk = await listingAt(t, seller.id, 'Lamp', 10000);
    const first = dayAhead(t, 10);
    await plan({ date: first, autoDrop: true });
    const later = dayAhead(t, 30);
    await plan({ date: later, autoDrop: true });
    await at(first, 7);
    expect(await price(desk)).toBe(100);
    await at(first, 0);
    expect(await browseIds(t, saver)).toContain(desk);
    expect((await listing(t, saver, desk)).mustGoBy).toBe(later);
    await at(later, 7);
    expect(await price(desk)).toBe(80);
  });

  it('does nothing once the plan is cleared', async () => {
    const desk = await listingAt(t, seller.id, 'Chair', 10000);
    const date = dayAhead(t, 10);
    await plan({ date, autoDrop: true });
    expect((await call(t, seller, 'DELETE', '/users/me/move-out')).statusCode).toBe(204);
    await at(date, 7);
    await at(date, 0);
    expect(await price(desk)).toBe(100);
    expect(await browseIds(t, saver)).toContain(desk);
  });

  it('runs a step once even when its timer is delivered twice (another process, a retry)', async () => {
    const desk = await listingAt(t, seller.id, 'Sofa', 10000);
    const date = dayAhead(t, 10);
    await plan({ date, autoDrop: true });
    const row = await t.app.ctx.db.kysely
      .selectFrom('move_out_plans')
      .select(['version'])
      .where('user_id', '=', seller.id)
      .executeTakeFirstOrThrow();
    // The same step filed again under another key: two deliveries of one timer.
    await inCampus(await campusOfUser(t, seller.id), () =>
      t.app.ctx.jobs.enqueue(
        t.app.ctx.db.kysely,
        JOB_PRICE_STEP,
        { userId: seller.id, version: row.version, step: 1 },
        { runAt: dayStartMs(date, DETROIT) - 7 * DAY, key: `duplicate-step:${seller.id}` },
      ),
    );
    await at(date, 7);
    expect(await price(desk)).toBe(80);
  });
});
