/**
 * Deals across campuses (features.md §E): offers, reservations, meet-ups and hand-off act only
 * within the student's campus; another campus's listing, offer or meet-up answers exactly like an
 * unknown id. Meet-up spots are the campus's own, and the deals timers run in their campus.
 */
import { DEALS_MESSAGES, roomIdFor, type Meetup, type Offer } from '@campus/contract';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { JOB_OFFER_EXPIRE, JOB_RESERVATION_LAPSE } from './offers.js';
import { call, cast, history, listingOf, offer, type Cast } from './testing.js';

const HOUR = 3_600_000;
/** An id nothing has. */
const UNKNOWN = 999_999;

describe.each(dialects)('deals across campuses (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: TWO_CAMPUSES });
  });
  afterAll(() => t.close());

  const msuCast = () => cast(t);
  const uwCast = () => cast(t, TEST_CAMPUS_DOMAINS.uw);
  /** What a client observes of an answer: status and body. */
  const seen = async (
    who: Student | null,
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: string }> => {
    const res = await call(t, who, method, url, payload);
    return { status: res.statusCode, body: res.body };
  };
  /** The answer for `url` with the id replaced by one nothing has, asked by the same student. */
  const unknownLike = (who: Student, method: 'GET' | 'POST', url: string, id: number, payload?: unknown) =>
    seen(who, method, url.replace(String(id), String(UNKNOWN)), payload);

  async function reserved(c: Cast): Promise<Offer> {
    const o = await offer(t, c.buyer, c.listingId, 12);
    expect((await call(t, c.seller, 'POST', `/offers/${o.id}/accept`)).statusCode).toBe(200);
    return o;
  }

  it("answers offers on another campus's listing, and another campus's offers, like unknown ids", async () => {
    const msu = await msuCast();
    const uw = await uwCast();
    const pending = await offer(t, msu.buyer, msu.listingId, 10);

    const listingCalls: Array<['GET' | 'POST', string, unknown]> = [
      ['POST', `/listings/${msu.listingId}/offers`, { amount: 10 }],
      ['GET', `/listings/${msu.listingId}/offers`, undefined],
    ];
    for (const [method, url, payload] of listingCalls) {
      const answer = await seen(uw.buyer, method, url, payload);
      expect([url, answer]).toEqual([url, await unknownLike(uw.buyer, method, url, msu.listingId, payload)]);
      expect(answer.status).toBe(404);
      expect((await seen(null, method, url, payload)).status).toBe(401);
    }
    for (const action of ['accept', 'decline', 'counter', 'withdraw']) {
      const url = `/offers/${pending.id}/${action}`;
      const payload = action === 'counter' ? { amount: 11 } : undefined;
      for (const who of [uw.buyer, uw.seller]) {
        const answer = await seen(who, 'POST', url, payload);
        expect([url, answer]).toEqual([url, await unknownLike(who, 'POST', url, pending.id, payload)]);
        expect(JSON.parse(answer.body)).toMatchObject({ message: DEALS_MESSAGES.offerNotFound });
      }
      expect((await seen(null, 'POST', url, payload)).status).toBe(401);
    }
    // Untouched, and the same calls work within a campus.
    const mine = (await call(t, msu.buyer, 'GET', `/listings/${msu.listingId}/offers`)).json() as Offer[];
    expect(mine.map((o) => [o.id, o.status])).toEqual([[pending.id, 'PENDING']]);
    const theirs = await offer(t, uw.buyer, uw.listingId, 9);
    expect((await call(t, uw.seller, 'POST', `/offers/${theirs.id}/accept`)).json()).toMatchObject({
      status: 'ACCEPTED',
    });
    expect((await history(t, uw.buyer, theirs.roomId)).map((m) => m.offer?.status)).toContain('ACCEPTED');
  });

  it("answers release and hand-off of another campus's reservation like an unknown listing", async () => {
    const msu = await msuCast();
    const uw = await uwCast();
    const o = await reserved(msu);
    const calls: Array<[Student, 'GET' | 'POST', string, unknown]> = [
      [uw.seller, 'POST', `/listings/${msu.listingId}/release`, undefined],
      [uw.buyer, 'GET', `/listings/${msu.listingId}/handoff`, undefined],
      [uw.seller, 'POST', `/listings/${msu.listingId}/handoff`, { code: '0000' }],
    ];
    for (const [who, method, url, payload] of calls) {
      const answer = await seen(who, method, url, payload);
      expect([url, answer]).toEqual([url, await unknownLike(who, method, url, msu.listingId, payload)]);
      expect(JSON.parse(answer.body)).toMatchObject({ message: DEALS_MESSAGES.listingNotFound });
      expect((await seen(null, method, url, payload)).status).toBe(401);
    }
    // No wrong try was counted, the reservation stands, and its buyer still reads the code.
    const offerRow = await t.app.ctx.db.kysely
      .selectFrom('offers')
      .select(['status', 'handoff_failures'])
      .where('id', '=', o.id)
      .executeTakeFirstOrThrow();
    expect(offerRow).toEqual({ status: 'ACCEPTED', handoff_failures: 0 });
    expect((await listingOf(t, msu.seller, msu.listingId)).status).toBe('RESERVED');
    expect((await call(t, msu.buyer, 'GET', `/listings/${msu.listingId}/handoff`)).statusCode).toBe(200);
  });

  it("keeps another campus's seller from toggling sold, and leaves the listing as it was", async () => {
    const msu = await msuCast();
    const uw = await uwCast();
    const toggle = (who: Student | null, id: number) => {
      const options = { method: 'PUT' as const, url: `/listings/sold/${id}` };
      return who ? asStudent(t, who, options) : t.app.inject(options);
    };
    // The route's own read is the listings module's; the toggle itself finds no such listing here.
    expect((await toggle(uw.seller, msu.listingId)).statusCode).toBeGreaterThanOrEqual(403);
    expect((await toggle(null, msu.listingId)).statusCode).toBe(401);
    expect((await listingOf(t, msu.seller, msu.listingId)).status).toBe('AVAILABLE');
    expect((await toggle(uw.seller, uw.listingId)).json()).toMatchObject({ status: 'SOLD' });
  });

  it("meets only at the campus's own spots, and answers another campus's meet-ups like unknown ids", async () => {
    const msu = await msuCast();
    const uw = await uwCast();
    await reserved(msu);
    await reserved(uw);
    // Whole minutes: the .ics carries seconds, not milliseconds.
    const when = new Date(Math.ceil((t.clock.now() + 2 * HOUR) / 60_000) * 60_000).toISOString();
    const propose = (who: Student, body: object) => call(t, who, 'POST', '/meetups', body);

    // UW's own spot at UW; not at MSU, and MSU's spots not at UW.
    const uwMeetup = await propose(uw.buyer, { listingId: uw.listingId, spotId: 'suzzallo', startsAt: when });
    expect(uwMeetup.statusCode).toBe(201);
    expect(uwMeetup.json()).toMatchObject({ spotId: 'suzzallo', place: 'Suzzallo Library steps' });
    for (const [who, listingId, spotId] of [
      [msu.buyer, msu.listingId, 'suzzallo'],
      [uw.seller, uw.listingId, 'library-entrance'],
    ] as const) {
      const res = await propose(who, { listingId, spotId, startsAt: when });
      expect([spotId, res.statusCode, res.json().message]).toEqual([
        spotId,
        400,
        DEALS_MESSAGES.meetupSpotUnknown,
      ]);
    }
    const msuMeetup = await propose(msu.buyer, {
      listingId: msu.listingId,
      spotId: 'library-entrance',
      startsAt: when,
    });
    expect(msuMeetup.statusCode).toBe(201);
    const mm = msuMeetup.json() as Meetup;

    // About another campus's listing, or in a room with another campus's student: as unknown.
    const aboutTheirs = await propose(uw.buyer, {
      listingId: msu.listingId,
      place: 'Library',
      startsAt: when,
    });
    const aboutNothing = await propose(uw.buyer, { listingId: UNKNOWN, place: 'Library', startsAt: when });
    expect([aboutTheirs.statusCode, aboutTheirs.body]).toEqual([aboutNothing.statusCode, aboutNothing.body]);
    expect(aboutTheirs.statusCode).toBe(404);
    const withTheirs = await propose(msu.seller, {
      listingId: msu.listingId,
      roomId: roomIdFor(msu.seller.id, uw.buyer.id),
      place: 'Library',
      startsAt: when,
    });
    const withNobody = await propose(msu.seller, {
      listingId: msu.listingId,
      roomId: roomIdFor(msu.seller.id, UNKNOWN),
      place: 'Library',
      startsAt: when,
    });
    expect([withTheirs.statusCode, withTheirs.body]).toEqual([withNobody.statusCode, withNobody.body]);
    expect(withTheirs.json().message).toBe(DEALS_MESSAGES.meetupNoRoom);
    expect((await seen(null, 'POST', '/meetups', { listingId: msu.listingId })).status).toBe(401);

    for (const [method, path] of [
      ['POST', `/meetups/${mm.id}/accept`],
      ['POST', `/meetups/${mm.id}/decline`],
      ['POST', `/meetups/${mm.id}/cancel`],
      ['POST', `/meetups/${mm.id}/no-show`],
      ['GET', `/meetups/${mm.id}.ics`],
    ] as const) {
      for (const who of [uw.buyer, uw.seller]) {
        const answer = await seen(who, method, path);
        expect([path, answer]).toEqual([path, await unknownLike(who, method, path, mm.id)]);
        expect(JSON.parse(answer.body)).toMatchObject({ message: DEALS_MESSAGES.meetupNotFound });
      }
      expect((await seen(null, method, path)).status).toBe(401);
    }
    // The MSU meet-up is as it was: its other student accepts it.
    expect((await call(t, msu.seller, 'POST', `/meetups/${mm.id}/accept`)).json()).toMatchObject({
      status: 'CONFIRMED',
    });

    // The .ics of a UW meet-up describes UW's spot (times in UTC, so no time zone is needed).
    const m = uwMeetup.json() as Meetup;
    const ics = await call(t, uw.seller, 'GET', `/meetups/${m.id}.ics`);
    expect(ics.statusCode).toBe(200);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics.body)).getFirstSubcomponent('vevent')!);
    expect(event.location).toBe('Suzzallo Library steps');
    expect(event.description).toContain('By the main doors.');
    expect(event.startDate.toJSDate().toISOString()).toBe(m.startsAt);
    expect(event.startDate.zone?.tzid).toBe('UTC');
  });

  it('runs the deals timers in their campus: each expiry and lapse is filed where its deal is', async () => {
    const msu = await msuCast();
    const uw = await uwCast();
    const uwLapsing = await uwCast();
    const msuPending = await offer(t, msu.buyer, msu.listingId, 10);
    const uwPending = await offer(t, uw.buyer, uw.listingId, 11);
    const uwReserved = await reserved(uwLapsing);

    const jobs = await t.app.ctx.db.kysely
      .selectFrom('jobs')
      .select(['key', 'campus_id'])
      .where('key', 'in', [
        `${JOB_OFFER_EXPIRE}:${msuPending.id}`,
        `${JOB_OFFER_EXPIRE}:${uwPending.id}`,
        `${JOB_RESERVATION_LAPSE}:${uwReserved.id}`,
      ])
      .orderBy('key')
      .execute();
    expect(jobs.map((j) => [j.key, Number(j.campus_id)]).sort()).toEqual(
      [
        [`${JOB_OFFER_EXPIRE}:${msuPending.id}`, msu.buyer.campusId],
        [`${JOB_OFFER_EXPIRE}:${uwPending.id}`, uw.buyer.campusId],
        [`${JOB_RESERVATION_LAPSE}:${uwReserved.id}`, uw.buyer.campusId],
      ].sort(),
    );

    t.clock.advance(72 * HOUR);
    await t.app.ctx.jobs.runDue({ types: [JOB_OFFER_EXPIRE, JOB_RESERVATION_LAPSE] });

    const statuses = await t.app.ctx.db.kysely
      .selectFrom('offers')
      .select(['id', 'status'])
      .where('id', 'in', [msuPending.id, uwPending.id, uwReserved.id])
      .execute();
    expect(Object.fromEntries(statuses.map((o) => [o.id, o.status]))).toEqual({
      [msuPending.id]: 'EXPIRED',
      [uwPending.id]: 'EXPIRED',
      [uwReserved.id]: 'EXPIRED',
    });
    expect((await listingOf(t, uwLapsing.seller, uwLapsing.listingId)).status).toBe('AVAILABLE');
    // The system lines are in each pair's room, of the pair's campus, and read there.
    expect((await history(t, uw.seller, uwPending.roomId)).at(-1)).toMatchObject({
      kind: 'system',
      content: 'The offer of $11 expired',
      offer: { id: uwPending.id, status: 'EXPIRED' },
    });
    expect((await history(t, msu.seller, msuPending.roomId)).at(-1)).toMatchObject({
      content: 'The offer of $10 expired',
    });
    expect((await history(t, uwLapsing.buyer, uwReserved.roomId)).at(-1)?.content).toMatch(
      /reservation lapsed/,
    );
    const lines = await t.app.ctx.db.kysely
      .selectFrom('chat_messages')
      .select(['room_id', 'campus_id'])
      .where('kind', '=', 'system')
      .where('room_id', 'in', [msuPending.roomId, uwPending.roomId, uwReserved.roomId])
      .execute();
    const campusOfRoom = {
      [msuPending.roomId]: msu.buyer.campusId,
      [uwPending.roomId]: uw.buyer.campusId,
      [uwReserved.roomId]: uw.buyer.campusId,
    };
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(Number(line.campus_id)).toBe(campusOfRoom[line.room_id]);
  });
});
