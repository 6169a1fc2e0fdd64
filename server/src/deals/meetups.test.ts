import { DEALS_MESSAGES, type Meetup } from '@campus/contract';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { call, cast, history, listingOf, offer, type Cast } from './testing.js';

const HOUR = 3_600_000;

describe.each(dialects)('meet-ups and hand-off (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
  });
  afterAll(() => t.close());
  const at = (ms: number) => new Date(t.clock.now() + ms).toISOString();

  /** A reserved listing: the buyer's offer of $12 accepted. */
  async function reserved(): Promise<Cast & { roomId: string }> {
    const c = await cast(t);
    const o = await offer(t, c.buyer, c.listingId, 12);
    await call(t, c.seller, 'POST', `/offers/${o.id}/accept`);
    return { ...c, roomId: o.roomId };
  }

  it('GET /public/campus lists the meet-up spots', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/public/campus' });
    const spots = (res.json() as { meetupSpots: { id: string; name: string }[] }).meetupSpots;
    expect(spots).toHaveLength(3);
    expect(spots.map((s) => s.id)).toContain('library-entrance');
  });

  it('proposes at a spot, one open per chat and listing, answered by the other student only', async () => {
    const c = await reserved();
    const body = { listingId: c.listingId, spotId: 'library-entrance', startsAt: at(2 * HOUR) };
    const res = await call(t, c.buyer, 'POST', '/meetups', body);
    expect(res.statusCode).toBe(201);
    const m = res.json() as Meetup;
    expect(m).toMatchObject({
      status: 'PROPOSED',
      place: 'Main library entrance',
      spotId: 'library-entrance',
      proposerId: c.buyer.id,
    });
    expect((await history(t, c.seller, c.roomId)).at(-1)).toMatchObject({
      kind: 'meetup',
      meetup: { id: m.id },
    });

    const twice = await call(t, c.seller, 'POST', '/meetups', body);
    expect([twice.statusCode, twice.json().message]).toEqual([409, DEALS_MESSAGES.meetupOpenExists]);
    expect((await call(t, c.buyer, 'POST', `/meetups/${m.id}/accept`)).json().message).toBe(
      DEALS_MESSAGES.meetupOwnAnswer,
    );
    expect((await call(t, c.third, 'POST', `/meetups/${m.id}/accept`)).statusCode).toBe(403);
    expect((await call(t, null, 'POST', `/meetups/${m.id}/accept`)).statusCode).toBe(401);
    expect((await call(t, c.seller, 'POST', `/meetups/${m.id}/accept`)).json().status).toBe('CONFIRMED');
    expect((await call(t, c.seller, 'POST', `/meetups/${m.id}/decline`)).statusCode).toBe(409);
    expect((await call(t, c.buyer, 'POST', `/meetups/${m.id}/cancel`)).json().status).toBe('CANCELLED');
    // Cancelled: a new one may be proposed, at a typed place.
    const again = await call(t, c.seller, 'POST', '/meetups', {
      listingId: c.listingId,
      place: 'Bus stop by Wells Hall',
      startsAt: at(3 * HOUR),
    });
    expect(again.json()).toMatchObject({ status: 'PROPOSED', spotId: null, place: 'Bus stop by Wells Hall' });
    expect((await call(t, c.buyer, 'POST', `/meetups/${again.json().id}/decline`)).json().status).toBe(
      'DECLINED',
    );
  });

  it('validates where and when, and who may propose', async () => {
    const c = await reserved();
    const post = (who: typeof c.buyer, b: object) =>
      call(t, who, 'POST', '/meetups', { listingId: c.listingId, ...b });
    const cases: [object, string][] = [
      [{ startsAt: at(HOUR) }, DEALS_MESSAGES.meetupWhereRequired],
      [{ spotId: 'library-entrance', place: 'x', startsAt: at(HOUR) }, DEALS_MESSAGES.meetupWhereBoth],
      [{ spotId: 'moon', startsAt: at(HOUR) }, DEALS_MESSAGES.meetupSpotUnknown],
      [{ place: 'x'.repeat(121), startsAt: at(HOUR) }, DEALS_MESSAGES.meetupPlaceTooLong],
      [{ place: 'Gym', startsAt: 'tomorrow' }, DEALS_MESSAGES.meetupStartsAtInvalid],
      [{ place: 'Gym', startsAt: at(14 * 60_000) }, DEALS_MESSAGES.meetupTooSoon],
      [{ place: 'Gym', startsAt: at(31 * 24 * HOUR) }, DEALS_MESSAGES.meetupTooFar],
    ];
    for (const [b, message] of cases) {
      const res = await post(c.buyer, b);
      expect([res.statusCode, res.json().message], JSON.stringify(b)).toEqual([400, message]);
    }
    const stranger = await post(c.third, { place: 'Gym', startsAt: at(HOUR) });
    expect([stranger.statusCode, stranger.json().message]).toEqual([403, DEALS_MESSAGES.meetupNoRoom]);
    expect((await post(c.buyer, { place: 'Gym', startsAt: at(15 * 60_000) })).statusCode).toBe(201);
  });

  it('.ics is a valid RFC 5545 event in UTC for either student only', async () => {
    const c = await reserved();
    const startsAt = new Date(Math.ceil((t.clock.now() + 5 * HOUR) / 60_000) * 60_000).toISOString();
    const m = (
      await call(t, c.buyer, 'POST', '/meetups', {
        listingId: c.listingId,
        spotId: 'student-union',
        startsAt,
      })
    ).json() as Meetup;
    const res = await call(t, c.seller, 'GET', `/meetups/${m.id}.ics`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    expect(res.body).toContain('\r\n');
    const vevent = new ICAL.Component(ICAL.parse(res.body)).getFirstSubcomponent('vevent')!;
    const event = new ICAL.Event(vevent);
    expect(event.uid).toMatch(new RegExp(`^meetup-${m.id}@`));
    expect(vevent.getFirstPropertyValue('dtstamp')).toBeTruthy();
    expect(event.startDate.toJSDate().toISOString()).toBe(startsAt);
    expect(event.startDate.zone?.tzid).toBe('UTC');
    expect(event.endDate.toJSDate().getTime() - Date.parse(startsAt)).toBe(30 * 60_000);
    expect(event.summary).toBe('Campus Market meet-up: Desk lamp');
    expect(event.location).toBe('Student union lobby');
    expect(/DTSTART:\d{8}T\d{6}Z/.test(res.body)).toBe(true);
    // A reminder an hour before the meet-up.
    const alarm = vevent.getFirstSubcomponent('valarm')!;
    expect(alarm.getFirstPropertyValue('action')).toBe('DISPLAY');
    expect(String(alarm.getFirstPropertyValue('trigger'))).toBe('-PT1H');
    expect(alarm.getFirstPropertyValue('description')).toBe('Meet-up in 1 hour at Student union lobby');
    expect((await call(t, c.third, 'GET', `/meetups/${m.id}.ics`)).statusCode).toBe(403);
    expect((await call(t, c.buyer, 'GET', `/meetups/999999.ics`)).statusCode).toBe(404);
  });

  it('no-show: only within 15 min – 48 h after a confirmed meet-up; the other student is reported', async () => {
    const c = await reserved();
    const m = (
      await call(t, c.buyer, 'POST', '/meetups', {
        listingId: c.listingId,
        spotId: 'student-union',
        startsAt: at(HOUR),
      })
    ).json() as Meetup;
    expect((await call(t, c.seller, 'POST', `/meetups/${m.id}/no-show`)).json().message).toBe(
      DEALS_MESSAGES.noShowNotConfirmed,
    );
    await call(t, c.seller, 'POST', `/meetups/${m.id}/accept`);
    t.clock.advance(HOUR + 14 * 60_000);
    expect((await call(t, c.seller, 'POST', `/meetups/${m.id}/no-show`)).json().message).toBe(
      DEALS_MESSAGES.noShowTooEarly,
    );
    t.clock.advance(60_000);
    expect((await call(t, c.third, 'POST', `/meetups/${m.id}/no-show`)).statusCode).toBe(403);
    const res = await call(t, c.seller, 'POST', `/meetups/${m.id}/no-show`);
    expect(res.json()).toMatchObject({ status: 'NO_SHOW', reportedUserId: c.buyer.id });
    const count = await t.app.ctx.db.kysely
      .selectFrom('meetups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('reported_user_id', '=', c.buyer.id)
      .where('status', '=', 'NO_SHOW')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('no-show is refused after 48 h', async () => {
    const c = await reserved();
    const m = (
      await call(t, c.buyer, 'POST', '/meetups', {
        listingId: c.listingId,
        spotId: 'student-union',
        startsAt: at(HOUR),
      })
    ).json() as Meetup;
    await call(t, c.seller, 'POST', `/meetups/${m.id}/accept`);
    t.clock.advance(HOUR + 48 * HOUR + 1);
    expect((await call(t, c.buyer, 'POST', `/meetups/${m.id}/no-show`)).json().message).toBe(
      DEALS_MESSAGES.noShowTooLate,
    );
  });

  describe('hand-off code', () => {
    it('only the reserved buyer reads it; the seller types it: SOLD, a deal, the meet-up DONE', async () => {
      const c = await reserved();
      const m = (
        await call(t, c.buyer, 'POST', '/meetups', {
          listingId: c.listingId,
          spotId: 'student-union',
          startsAt: at(HOUR),
        })
      ).json() as Meetup;
      await call(t, c.seller, 'POST', `/meetups/${m.id}/accept`);
      const res = await call(t, c.buyer, 'GET', `/listings/${c.listingId}/handoff`);
      expect(res.statusCode).toBe(200);
      const { code } = res.json() as { code: string };
      expect(code).toMatch(/^\d{4}$/);
      expect((await call(t, c.seller, 'GET', `/listings/${c.listingId}/handoff`)).json().message).toBe(
        DEALS_MESSAGES.handoffNotBuyer,
      );
      expect((await call(t, c.third, 'GET', `/listings/${c.listingId}/handoff`)).statusCode).toBe(403);
      expect((await call(t, null, 'GET', `/listings/${c.listingId}/handoff`)).statusCode).toBe(401);
      expect(
        (await call(t, c.buyer, 'POST', `/listings/${c.listingId}/handoff`, { code })).json().message,
      ).toBe(DEALS_MESSAGES.handoffNotSeller);
      expect(
        (await call(t, c.seller, 'POST', `/listings/${c.listingId}/handoff`, { code: '12a4' })).statusCode,
      ).toBe(400);

      const done = await call(t, c.seller, 'POST', `/listings/${c.listingId}/handoff`, { code });
      expect(done.statusCode).toBe(200);
      expect(done.json().deal).toMatchObject({
        listingId: c.listingId,
        listingName: 'Desk lamp',
        sellerId: c.seller.id,
        buyerId: c.buyer.id,
        price: 12,
      });
      expect(await listingOf(t, c.third, c.listingId)).toMatchObject({ status: 'SOLD', isSold: true });
      const last = (await history(t, c.buyer, c.roomId)).at(-1);
      expect(last).toMatchObject({
        kind: 'system',
        content: 'Hand-off confirmed: Desk lamp sold for $12',
        meetup: { id: m.id, status: 'DONE' },
      });
      const rows = await t.app.ctx.db.kysely
        .selectFrom('deals')
        .selectAll()
        .where('listing_id', '=', c.listingId)
        .execute();
      expect(rows).toHaveLength(1);
      // Stale: sold now.
      expect((await call(t, c.seller, 'POST', `/listings/${c.listingId}/handoff`, { code })).statusCode).toBe(
        409,
      );
      expect((await call(t, c.buyer, 'GET', `/listings/${c.listingId}/handoff`)).statusCode).toBe(409);
    });

    it('5 wrong codes lock hand-off until the seller releases', async () => {
      const c = await reserved();
      const { code } = (await call(t, c.buyer, 'GET', `/listings/${c.listingId}/handoff`)).json() as {
        code: string;
      };
      const wrong = code === '0000' ? '1111' : '0000';
      for (let i = 1; i <= 4; i++) {
        const res = await call(t, c.seller, 'POST', `/listings/${c.listingId}/handoff`, { code: wrong });
        expect([res.statusCode, res.json().message]).toEqual([400, DEALS_MESSAGES.handoffWrong(5 - i)]);
      }
      const fifth = await call(t, c.seller, 'POST', `/listings/${c.listingId}/handoff`, { code: wrong });
      expect([fifth.statusCode, fifth.json().message]).toEqual([409, DEALS_MESSAGES.handoffLocked]);
      const right = await call(t, c.seller, 'POST', `/listings/${c.listingId}/handoff`, { code });
      expect([right.statusCode, right.json().message]).toEqual([409, DEALS_MESSAGES.handoffLocked]);
      await call(t, c.seller, 'POST', `/listings/${c.listingId}/release`);
      const o = await offer(t, c.buyer, c.listingId, 12);
      await call(t, c.seller, 'POST', `/offers/${o.id}/accept`);
      const fresh = (await call(t, c.buyer, 'GET', `/listings/${c.listingId}/handoff`)).json() as {
        code: string;
      };
      expect(
        (await call(t, c.seller, 'POST', `/listings/${c.listingId}/handoff`, { code: fresh.code }))
          .statusCode,
      ).toBe(200);
    });
  });
});
