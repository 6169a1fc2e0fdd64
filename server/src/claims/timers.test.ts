/**
 * A giveaway's timers and its line (features.md §H): CLAIMS_READY at the window's end, the draw
 * that runs on its own 24 h later (once, however often its job runs), and the pickup that passes
 * to the next claimant in the drawn order when it lapses, is missed, or is given up.
 */
import type { Claim, ClaimDraw, Meetup, Offer } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { JOB_AUTO_DRAW, JOB_WINDOW_END } from './index.js';
import { call, claim, claimsOf, giveaway, HOUR, scripted, type Giveaway } from './testing.js';

const MINUTE = 60_000;

describe.each(dialects)('claim timers (%s)', (dialect) => {
  let t: TestApp;
  const random = scripted([]);
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, claims: { random: (n) => random.source(n) } });
  });
  afterAll(() => t.close());

  const notices = async (who: Student) =>
    (
      (await call(t, who, 'GET', '/notifications')).json() as {
        notifications: Array<{ type: string; title: string; body: string }>;
      }
    ).notifications;
  const run = (types: string[]) => t.app.ctx.jobs.runDue({ types });
  const listingOf = async (who: Student, id: number) =>
    (await call(t, who, 'GET', `/listing/${id}`)).json() as { status: string; reservedFor?: { id: number } };

  /** A giveaway with three claims in drawn order c0, c1, c2 (the source keeps the order). */
  async function drawn(): Promise<{ g: Giveaway; ids: number[] }> {
    const g = await giveaway(t, 3, 2);
    const ids: number[] = [];
    for (const c of g.claimants) ids.push((await claim(t, c, g.listing.id)).id);
    t.clock.advance(2 * HOUR);
    // Fisher–Yates over three: j = 2 at i = 2 and j = 1 at i = 1 leave the order as it is.
    random.push(2, 1);
    const res = await call(t, g.giver, 'POST', `/listings/${g.listing.id}/claims/draw`);
    expect(res.json().orderClaimIds).toEqual(ids);
    return { g, ids };
  }

  it('tells the giver once when the window closes, then draws on its own 24 h later, once', async () => {
    const g = await giveaway(t, 2, 3);
    const ids = [
      (await claim(t, g.claimants[0]!, g.listing.id)).id,
      (await claim(t, g.claimants[1]!, g.listing.id)).id,
    ];
    await run([JOB_WINDOW_END, JOB_AUTO_DRAW]);
    expect((await notices(g.giver)).filter((n) => n.type === 'CLAIMS_READY')).toHaveLength(0);
    t.clock.advance(3 * HOUR);
    await run([JOB_WINDOW_END, JOB_AUTO_DRAW]);
    const ready = (await notices(g.giver)).filter((n) => n.type === 'CLAIMS_READY');
    expect(ready).toHaveLength(1);
    expect(ready[0]).toMatchObject({ title: 'Claims for “Desk lamp” are in' });
    expect(ready[0]!.body).toMatch(/^2 students want it/);
    // Nothing drawn before the 24 h.
    t.clock.advance(24 * HOUR - MINUTE);
    await run([JOB_AUTO_DRAW]);
    expect((await call(t, g.giver, 'GET', `/listings/${g.listing.id}/claims/draw`)).statusCode).toBe(404);
    t.clock.advance(MINUTE);
    random.push(0); // [a, b] with j = 0 at i = 1: b, a
    await run([JOB_AUTO_DRAW]);
    const draw = (
      await call(t, g.claimants[0]!, 'GET', `/listings/${g.listing.id}/claims/draw`)
    ).json() as ClaimDraw;
    expect(draw).toMatchObject({
      method: 'AUTO_DRAWN',
      byId: null,
      orderClaimIds: [ids[1], ids[0]],
      winnerClaimId: ids[1],
    });
    expect((await listingOf(g.giver, g.listing.id)).reservedFor?.id).toBe(g.claimants[1]!.id);
    // The job again (another process, a retry): the state says it is done.
    await t.app.ctx.jobs.enqueue(
      t.app.ctx.db.kysely,
      JOB_AUTO_DRAW,
      { listingId: g.listing.id },
      {
        campusId: 1,
      },
    );
    await t.app.ctx.jobs.enqueue(
      t.app.ctx.db.kysely,
      JOB_WINDOW_END,
      { listingId: g.listing.id },
      {
        campusId: 1,
      },
    );
    await run([JOB_WINDOW_END, JOB_AUTO_DRAW]);
    expect((await notices(g.giver)).filter((n) => n.type === 'CLAIMS_READY')).toHaveLength(1);
    const again = (
      await call(t, g.giver, 'GET', `/listings/${g.listing.id}/claims/draw`)
    ).json() as ClaimDraw;
    expect(again.id).toBe(draw.id);
    expect((await notices(g.claimants[1]!)).filter((n) => n.type === 'CLAIM_WON')).toHaveLength(1);
  });

  it('does not draw on its own after the giver decided', async () => {
    const g = await giveaway(t, 1, 1);
    const c = await claim(t, g.claimants[0]!, g.listing.id);
    t.clock.advance(HOUR);
    expect((await call(t, g.giver, 'POST', `/claims/${c.id}/choose`)).statusCode).toBe(200);
    t.clock.advance(25 * HOUR);
    await run([JOB_AUTO_DRAW]);
    const draw = (await call(t, g.giver, 'GET', `/listings/${g.listing.id}/claims/draw`)).json() as ClaimDraw;
    expect(draw.method).toBe('CHOSEN');
  });

  it('passes a pickup that lapses after 48 h to the next claimant in the drawn order', async () => {
    const { g, ids } = await drawn();
    t.clock.advance(48 * HOUR - MINUTE);
    await run(['deals.reservation-lapse']);
    expect((await listingOf(g.giver, g.listing.id)).reservedFor?.id).toBe(g.claimants[0]!.id);
    t.clock.advance(MINUTE);
    await run(['deals.reservation-lapse']);
    const all = await claimsOf(t, g.giver, g.listing.id);
    expect([all.get(ids[0]!)!.status, all.get(ids[1]!)!.status, all.get(ids[2]!)!.status]).toEqual([
      'PASSED',
      'CHOSEN',
      'OPEN',
    ]);
    expect((await listingOf(g.giver, g.listing.id)).reservedFor?.id).toBe(g.claimants[1]!.id);
    expect((await notices(g.claimants[1]!))[0]).toMatchObject({ type: 'CLAIM_WON' });
    // The new pickup has its own 48 h and code.
    const offers = (
      await call(t, g.claimants[1]!, 'GET', `/listings/${g.listing.id}/offers`)
    ).json() as Offer[];
    expect(offers[0]).toMatchObject({ status: 'ACCEPTED', amount: 0, claimId: ids[1] });
    // The one whose pickup lapsed sees the story in their room.
    const first = (
      await call(t, g.claimants[0]!, 'GET', `/listings/${g.listing.id}/offers`)
    ).json() as Offer[];
    expect(first[0]!.status).toBe('EXPIRED');
    const history = (
      await call(t, g.claimants[0]!, 'GET', `/api/chats/${first[0]!.roomId}`)
    ).json() as Array<{
      content: string;
    }>;
    expect(history.at(-1)!.content).toBe(
      'The pickup lapsed without a hand-off: the item goes to the next student in line.',
    );
  });

  it('passes the item on when the giver reports the winner absent from the pickup', async () => {
    const { g, ids } = await drawn();
    const winner = g.claimants[0]!;
    const startsAt = new Date(t.clock.now() + 2 * HOUR).toISOString();
    const proposed = await call(t, winner, 'POST', '/meetups', {
      listingId: g.listing.id,
      place: 'Library steps',
      startsAt,
    });
    expect(proposed.statusCode).toBe(201);
    const meetup = proposed.json() as Meetup;
    expect((await call(t, g.giver, 'POST', `/meetups/${meetup.id}/accept`)).statusCode).toBe(200);
    t.clock.advance(2 * HOUR + 16 * MINUTE);
    const res = await call(t, g.giver, 'POST', `/meetups/${meetup.id}/no-show`);
    expect([res.statusCode, res.json().status]).toEqual([200, 'NO_SHOW']);
    const all = await claimsOf(t, g.giver, g.listing.id);
    expect([all.get(ids[0]!)!.status, all.get(ids[1]!)!.status]).toEqual(['PASSED', 'CHOSEN']);
    expect((await listingOf(g.giver, g.listing.id)).reservedFor?.id).toBe(g.claimants[1]!.id);
  });

  it('keeps the pickup when the winner reports the giver absent (it lapses as usual)', async () => {
    const { g, ids } = await drawn();
    const winner = g.claimants[0]!;
    const startsAt = new Date(t.clock.now() + HOUR).toISOString();
    const meetup = (
      await call(t, g.giver, 'POST', '/meetups', { listingId: g.listing.id, place: 'Gym', startsAt })
    ).json() as Meetup;
    expect((await call(t, winner, 'POST', `/meetups/${meetup.id}/accept`)).statusCode).toBe(200);
    t.clock.advance(HOUR + 16 * MINUTE);
    expect((await call(t, winner, 'POST', `/meetups/${meetup.id}/no-show`)).statusCode).toBe(200);
    const all = await claimsOf(t, g.giver, g.listing.id);
    expect(all.get(ids[0]!)!.status).toBe('CHOSEN');
  });

  it('passes the item on when the winner gives the pickup up; the line ends quietly', async () => {
    const { g, ids } = await drawn();
    for (const [i, who] of g.claimants.entries()) {
      const res = await call(t, who, 'DELETE', `/listings/${g.listing.id}/claims/mine`);
      expect([res.statusCode, (res.json() as Claim).status]).toEqual([200, 'WITHDRAWN']);
      const next = g.claimants[i + 1];
      expect((await listingOf(g.giver, g.listing.id)).reservedFor?.id).toBe(next?.id);
    }
    const all = await claimsOf(t, g.giver, g.listing.id);
    expect(ids.map((id) => all.get(id)!.status)).toEqual(['WITHDRAWN', 'WITHDRAWN', 'WITHDRAWN']);
    expect((await listingOf(g.giver, g.listing.id)).status).toBe('AVAILABLE');
  });

  it('passes the item on when the giver releases the pickup; a sale elsewhere ends the line', async () => {
    const { g, ids } = await drawn();
    expect((await call(t, g.giver, 'POST', `/listings/${g.listing.id}/release`)).statusCode).toBe(200);
    expect((await listingOf(g.giver, g.listing.id)).reservedFor?.id).toBe(g.claimants[1]!.id);
    const sold = await t.app.inject({
      method: 'PUT',
      url: `/listings/sold/${g.listing.id}`,
      headers: { authorization: `Bearer ${g.giver.token}` },
    });
    expect(sold.statusCode).toBe(200);
    const all = await claimsOf(t, g.giver, g.listing.id);
    expect(ids.map((id) => all.get(id)!.status)).toEqual(['PASSED', 'PASSED', 'LOST']);
    expect((await notices(g.claimants[2]!))[0]).toMatchObject({ type: 'CLAIM_LOST' });
  });
});
