/**
 * Claims per campus (features.md §E, §H): a student of another campus meets every claims route
 * exactly like an unknown id, sees no other campus's free items, and a campus's giveaway timers
 * run in that campus.
 */
import type { Claim, ClaimDraw, Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { JOB_AUTO_DRAW, JOB_WINDOW_END } from './index.js';
import { call, claim, giveaway, HOUR, scripted } from './testing.js';

const UNKNOWN = 999_999;

describe.each(dialects)('claims across campuses (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      jobWorker: false,
      env: TWO_CAMPUSES,
      claims: { random: scripted([]).source },
    });
  });
  afterAll(() => t.close());

  const seen = async (
    who: Student | null,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => {
    const res = await call(t, who, method, url, payload);
    return { status: res.statusCode, body: res.body };
  };

  it("answers every claims route about another campus's item like an unknown id", async () => {
    const uw = await giveaway(t, 1, 1, TEST_CAMPUS_DOMAINS.uw);
    const msu = await giveaway(t, 0, 1);
    const mine = await claim(t, uw.claimants[0]!, uw.listing.id);
    const outsider = msu.stranger;
    const id = uw.listing.id;
    const routes: Array<['GET' | 'POST' | 'DELETE', string, number, unknown?]> = [
      ['POST', `/listings/${id}/claims`, id, { note: 'hi' }],
      ['GET', `/listings/${id}/claims`, id],
      ['DELETE', `/listings/${id}/claims/mine`, id],
      ['POST', `/listings/${id}/claims/draw`, id],
      ['GET', `/listings/${id}/claims/draw`, id],
      ['POST', `/claims/${mine.id}/choose`, mine.id],
    ];
    t.clock.advance(HOUR);
    for (const [method, url, target, payload] of routes) {
      const got = await seen(outsider, method, url, payload);
      const unknown = await seen(outsider, method, url.replace(String(target), String(UNKNOWN)), payload);
      expect(got, `${method} ${url}`).toEqual(unknown);
      expect(got.status, `${method} ${url}`).toBe(404);
    }
    // The giver of the other campus cannot choose this campus's claim either.
    expect((await call(t, msu.giver, 'POST', `/claims/${mine.id}/choose`)).statusCode).toBe(404);
    // Nothing changed for the campus's own students.
    const own = (await call(t, uw.giver, 'GET', `/listings/${id}/claims`)).json() as Claim[];
    expect(own.map((c) => [c.id, c.status])).toEqual([[mine.id, 'OPEN']]);
  });

  it("shows a campus's free items to its own students only", async () => {
    const uw = await giveaway(t, 0, 1, TEST_CAMPUS_DOMAINS.uw);
    const msu = await giveaway(t, 0, 1);
    const freeFor = async (who: Student) =>
      ((await call(t, who, 'GET', '/listings/filters?free=true&limit=50')).json() as Listing[]).map(
        (l) => l.id,
      );
    expect(await freeFor(msu.stranger)).not.toContain(uw.listing.id);
    expect(await freeFor(uw.stranger)).toContain(uw.listing.id);
    expect(await freeFor(uw.stranger)).not.toContain(msu.listing.id);
  });

  it("runs a campus's window-end notice and automatic draw in that campus", async () => {
    const uw = await giveaway(t, 2, 1, TEST_CAMPUS_DOMAINS.uw);
    for (const c of uw.claimants) await claim(t, c, uw.listing.id);
    t.clock.advance(25 * HOUR);
    await t.app.ctx.jobs.runDue({ types: [JOB_WINDOW_END, JOB_AUTO_DRAW, 'notify.live', 'notify.send'] });
    const draw = (
      await call(t, uw.giver, 'GET', `/listings/${uw.listing.id}/claims/draw`)
    ).json() as ClaimDraw;
    expect(draw).toMatchObject({ method: 'AUTO_DRAWN', listingId: uw.listing.id });
    const notes = (await call(t, uw.giver, 'GET', '/notifications')).json() as {
      notifications: Array<{ type: string }>;
    };
    expect(notes.notifications.map((n) => n.type)).toContain('CLAIMS_READY');
    const listing = (await call(t, uw.giver, 'GET', `/listing/${uw.listing.id}`)).json() as Listing;
    expect(listing.status).toBe('RESERVED');
  });
});
