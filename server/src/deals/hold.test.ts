import { HOLD_MESSAGES, dayStartMs, type Offer } from '@campus/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_CAMPUS_DOMAINS, TWO_CAMPUSES } from '../../test/campuses.js';
import { createStudent, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { DAY, DETROIT, call, dayAhead, listing, notices } from '../moving-out/testing.js';
import { JOB_HOLD_REMINDER } from './hold.js';
import { JOB_OFFER_EXPIRE, JOB_RESERVATION_LAPSE } from './offers.js';
import type { Cast } from './testing.js';

const HOUR = 3_600_000;

/** Hold for fall (features.md §H): holdUntil on offers, the longer reservation, reminders, meet-ups. */
describe.each(dialects)('hold for fall (%s)', (dialect) => {
  let t: TestApp;
  let c: Cast;
  const start = Date.now();

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: TWO_CAMPUSES });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.nowMs = start;
    const seller = await createStudent(t, { firstName: 'Maya' });
    const buyer = await createStudent(t, { firstName: 'Omar' });
    const third = await createStudent(t, { firstName: 'Tess' });
    c = { seller, buyer, third, listingId: await createListing(t, seller.id) };
  });

  const runDeals = () =>
    t.app.ctx.jobs.runDue({ types: [JOB_OFFER_EXPIRE, JOB_RESERVATION_LAPSE, JOB_HOLD_REMINDER] });
  const offer = async (body: object) => {
    const res = await call(t, c.buyer, 'POST', `/listings/${c.listingId}/offers`, body);
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json() as Offer;
  };
  const heldAndAccepted = async (days: number) => {
    const hold = dayAhead(t, days);
    const o = await offer({ amount: 12, holdUntil: hold });
    expect((await call(t, c.seller, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(200);
    return { o, hold, holdStart: dayStartMs(hold, DETROIT) };
  };

  it('answers holdUntil on offers (null without one)', async () => {
    const plain = await offer({ amount: 10 });
    expect(plain.holdUntil).toBeNull();
    const hold = dayAhead(t, 60);
    const held = await offer({ amount: 11, holdUntil: hold });
    expect(held.holdUntil).toBe(hold);
    const listed = (await call(t, c.seller, 'GET', `/listings/${c.listingId}/offers`)).json() as Offer[];
    expect(listed[0]).toMatchObject({ id: held.id, holdUntil: hold });
  });

  it('refuses a hold that is not a day, not in the future, or more than 120 days ahead', async () => {
    const cases: [unknown, string][] = [
      ['2027-13-01', HOLD_MESSAGES.holdInvalid],
      ['soon', HOLD_MESSAGES.holdInvalid],
      [dayAhead(t, 0), HOLD_MESSAGES.holdNotFuture],
      [dayAhead(t, -3), HOLD_MESSAGES.holdNotFuture],
      [dayAhead(t, 122), HOLD_MESSAGES.holdTooFar],
    ];
    for (const [holdUntil, message] of cases) {
      const res = await call(t, c.buyer, 'POST', `/listings/${c.listingId}/offers`, {
        amount: 10,
        holdUntil,
      });
      expect([res.statusCode, res.json().message], String(holdUntil)).toEqual([400, message]);
    }
  });

  it('refuses anonymous callers and students of another campus, as any offer', async () => {
    const hold = dayAhead(t, 30);
    expect(
      (await call(t, null, 'POST', `/listings/${c.listingId}/offers`, { amount: 10, holdUntil: hold }))
        .statusCode,
    ).toBe(401);
    const husky = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    expect(
      (await call(t, husky, 'POST', `/listings/${c.listingId}/offers`, { amount: 10, holdUntil: hold }))
        .statusCode,
    ).toBe(404);
    const own = await call(t, c.seller, 'POST', `/listings/${c.listingId}/offers`, {
      amount: 10,
      holdUntil: hold,
    });
    expect(own.statusCode).toBe(403);
  });

  it('keeps the hold on a counter-offer unless the counter names its own', async () => {
    const hold = dayAhead(t, 40);
    const first = await offer({ amount: 10, holdUntil: hold });
    const counter = await call(t, c.seller, 'POST', `/offers/${first.id}/counter`, { amount: 13 });
    expect((counter.json() as Offer).holdUntil).toBe(hold);
    const later = dayAhead(t, 50);
    const back = await call(t, c.buyer, 'POST', `/offers/${(counter.json() as Offer).id}/counter`, {
      amount: 12,
      holdUntil: later,
    });
    expect((back.json() as Offer).holdUntil).toBe(later);
  });

  it('holds the reservation until 48 h after the day instead of 72 h, then lapses', async () => {
    const { holdStart } = await heldAndAccepted(20);
    expect((await listing(t, c.seller, c.listingId)).heldUntil).toBe(dayAhead(t, 20));
    expect((await listing(t, c.third, c.listingId)).heldUntil).toBe(dayAhead(t, 20));
    t.clock.nowMs = start + 73 * HOUR;
    await runDeals();
    expect((await listing(t, c.seller, c.listingId)).status).toBe('RESERVED');
    t.clock.nowMs = holdStart + 47 * HOUR;
    await runDeals();
    expect((await listing(t, c.seller, c.listingId)).status).toBe('RESERVED');
    t.clock.nowMs = holdStart + 48 * HOUR + 1000;
    await runDeals();
    const after = await listing(t, c.seller, c.listingId);
    expect([after.status, after.heldUntil]).toEqual(['AVAILABLE', null]);
  });

  it('lists held items for the seller and the buyer only (GET /listings/held)', async () => {
    const { hold } = await heldAndAccepted(20);
    for (const who of [c.seller, c.buyer]) {
      const res = await call(t, who, 'GET', '/listings/held');
      expect((res.json() as { id: number; heldUntil: string }[]).map((l) => [l.id, l.heldUntil])).toEqual([
        [c.listingId, hold],
      ]);
    }
    expect((await call(t, c.third, 'GET', '/listings/held')).json()).toEqual([]);
    expect((await call(t, null, 'GET', '/listings/held')).statusCode).toBe(401);
  });

  it('reminds both students 7 days and 1 day before the day', async () => {
    const { holdStart } = await heldAndAccepted(20);
    t.clock.nowMs = holdStart - 7 * DAY - HOUR;
    await runDeals();
    expect(await notices(t, c.buyer, 'HOLD_REMINDER')).toHaveLength(0);
    t.clock.nowMs = holdStart - 7 * DAY + HOUR;
    await runDeals();
    for (const who of [c.buyer, c.seller]) {
      const got = await notices(t, who, 'HOLD_REMINDER');
      expect(got).toHaveLength(1);
      expect(got[0]!.body).toMatch(/in 7 days/);
    }
    t.clock.nowMs = holdStart - DAY + HOUR;
    await runDeals();
    expect((await notices(t, c.buyer, 'HOLD_REMINDER'))[0]!.body).toMatch(/tomorrow/);
    expect(await notices(t, c.seller, 'HOLD_REMINDER')).toHaveLength(2);
    expect(await notices(t, c.third, 'HOLD_REMINDER')).toHaveLength(0);
  });

  it('sends no reminder once the reservation was released', async () => {
    const { holdStart } = await heldAndAccepted(20);
    expect((await call(t, c.seller, 'POST', `/listings/${c.listingId}/release`)).statusCode).toBe(200);
    t.clock.nowMs = holdStart - DAY + HOUR;
    await runDeals();
    expect(await notices(t, c.buyer, 'HOLD_REMINDER')).toHaveLength(0);
  });

  it('takes meet-ups from 7 days before the day, saying from when', async () => {
    const { holdStart } = await heldAndAccepted(20);
    const propose = (startsAt: number) =>
      call(t, c.buyer, 'POST', '/meetups', {
        listingId: c.listingId,
        spotId: 'library-entrance',
        startsAt: new Date(startsAt).toISOString(),
      });
    const early = await propose(t.clock.nowMs + DAY);
    expect(early.statusCode).toBe(400);
    const fromDay = dayAhead(t, 13);
    expect(early.json().message).toBe(HOLD_MESSAGES.meetupTooEarly(dayAhead(t, 20), fromDay));
    t.clock.nowMs = holdStart - 7 * DAY + HOUR;
    const ok = await propose(holdStart + 10 * HOUR);
    expect(ok.statusCode).toBe(201);
  });

  it('leaves offers without a hold at 72 h', async () => {
    const o = await offer({ amount: 12 });
    expect((await call(t, c.seller, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(200);
    expect((await listing(t, c.seller, c.listingId)).heldUntil).toBeNull();
    t.clock.nowMs = start + 72 * HOUR + 1000;
    await runDeals();
    expect((await listing(t, c.seller, c.listingId)).status).toBe('AVAILABLE');
  });
});
