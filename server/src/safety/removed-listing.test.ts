import {
  DEAL_EVENTS,
  MESSAGES,
  type ChatMessage,
  type Listing,
  type Meetup,
  type Offer,
} from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { MOD_EMAIL, call } from './testing.js';

const HOUR = 3_600_000;
const UNKNOWN = 987_654;

/**
 * A listing a moderator removed is gone for everyone but its seller's own list: every deals route
 * and the favourites answer it exactly like an unknown listing, and the deals going on it end.
 */
describe.each(dialects)('a removed listing is no longer tradable (%s)', (dialect) => {
  let t: TestApp;
  let mod: Student;
  let seller: Student;
  let buyer: Student;
  let other: Student;
  let stranger: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false, env: { MODERATOR_EMAILS: MOD_EMAIL } });
    mod = await createStudent(t, { email: MOD_EMAIL, firstName: 'Mona' });
    seller = await createStudent(t, { firstName: 'Maya' });
    buyer = await createStudent(t, { firstName: 'Ben' });
    other = await createStudent(t, { firstName: 'Olly' });
    stranger = await createStudent(t, { firstName: 'Tess' });
  });
  afterAll(() => t.close());

  const at = (ms: number) => new Date(t.clock.now() + ms).toISOString();
  const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(status);
    return r.json() as T;
  };
  const remove = (id: number) =>
    ok(call(t, mod, 'POST', `/mod/listings/${id}/remove`, { reason: 'Counterfeit goods' }));
  const history = (who: Student, roomId: string) =>
    ok<ChatMessage[]>(call(t, who, 'GET', `/api/chats/${roomId}`));

  it('ends the reservation and every pending offer and open meet-up, with a system line in each room', async () => {
    const reservedId = await createListing(t, seller.id, 'Reserved bike');
    const pendingId = await createListing(t, seller.id, 'Pending desk');
    // Reserved: Ben's offer accepted and a meet-up confirmed.
    const accepted = await ok<Offer>(
      call(t, buyer, 'POST', `/listings/${reservedId}/offers`, { amount: 12 }),
      201,
    );
    await ok(call(t, seller, 'POST', `/offers/${accepted.id}/accept`));
    const confirmed = await ok<Meetup>(
      call(t, buyer, 'POST', '/meetups', { listingId: reservedId, place: 'Library', startsAt: at(2 * HOUR) }),
      201,
    );
    await ok(call(t, seller, 'POST', `/meetups/${confirmed.id}/accept`));
    // Pending: Olly's offer countered by the seller, and a meet-up proposed.
    const first = await ok<Offer>(
      call(t, other, 'POST', `/listings/${pendingId}/offers`, { amount: 9 }),
      201,
    );
    const counter = await ok<Offer>(
      call(t, seller, 'POST', `/offers/${first.id}/counter`, { amount: 11 }),
      201,
    );
    const proposed = await ok<Meetup>(
      call(t, other, 'POST', '/meetups', { listingId: pendingId, place: 'Union', startsAt: at(3 * HOUR) }),
      201,
    );

    await remove(reservedId);
    await remove(pendingId);

    const reservedRoom = await history(buyer, accepted.roomId);
    expect(reservedRoom.at(-1)).toMatchObject({ kind: 'system', content: DEAL_EVENTS.listingRemoved() });
    expect(reservedRoom.find((m) => m.offer?.id === accepted.id)?.offer?.status).toBe('CANCELLED');
    expect(reservedRoom.find((m) => m.meetup?.id === confirmed.id)?.meetup?.status).toBe('CANCELLED');
    const pendingRoom = await history(other, counter.roomId);
    expect(pendingRoom.at(-1)).toMatchObject({ kind: 'system', content: DEAL_EVENTS.listingRemoved() });
    expect(pendingRoom.find((m) => m.offer?.id === counter.id)?.offer?.status).toBe('CANCELLED');
    expect(pendingRoom.find((m) => m.meetup?.id === proposed.id)?.meetup?.status).toBe('CANCELLED');
    // The seller still finds both in their own list, no longer reserved for anyone.
    const own = await ok<Listing[]>(call(t, seller, 'GET', '/listings/self'));
    expect(own.find((l) => l.id === reservedId)).toMatchObject({ status: 'AVAILABLE' });
    expect(own.map((l) => l.id)).toContain(pendingId);
  });

  it('answers every deals route and save as for an unknown listing, for buyer, other party and stranger', async () => {
    const id = await createListing(t, seller.id, 'Fake watch');
    await ok(call(t, buyer, 'PUT', `/listings/${id}/save`));
    const accepted = await ok<Offer>(call(t, buyer, 'POST', `/listings/${id}/offers`, { amount: 12 }), 201);
    await ok(call(t, seller, 'POST', `/offers/${accepted.id}/accept`));
    const meetup = await ok<Meetup>(
      call(t, buyer, 'POST', '/meetups', { listingId: id, place: 'Library', startsAt: at(2 * HOUR) }),
      201,
    );
    const code = (await ok<{ code: string }>(call(t, buyer, 'GET', `/listings/${id}/handoff`))).code;
    // A second listing of the same seller with Olly's offer still pending.
    const id2 = await createListing(t, seller.id, 'Fake bag');
    const pending = await ok<Offer>(call(t, other, 'POST', `/listings/${id2}/offers`, { amount: 8 }), 201);
    expect((await ok<Listing[]>(call(t, buyer, 'GET', '/listings/saved'))).map((l) => l.id)).toEqual([id]);

    await remove(id);
    await remove(id2);

    const unknown = await call(t, buyer, 'POST', `/listings/${UNKNOWN}/offers`, { amount: 5 });
    expect(unknown.statusCode).toBe(404);
    const gone = unknown.json() as { message: string };
    const place = { place: 'Library', startsAt: at(4 * HOUR) };
    const refusals: Array<[Student, 'GET' | 'POST' | 'PUT', string, unknown?]> = [];
    for (const who of [buyer, other, stranger]) {
      refusals.push(
        [who, 'POST', `/listings/${id}/offers`, { amount: 10 }],
        [who, 'POST', `/listings/${id2}/offers`, { amount: 10 }],
        [who, 'POST', '/meetups', { listingId: id, ...place }],
        [who, 'GET', `/listings/${id}/handoff`],
        [who, 'PUT', `/listings/${id}/save`],
      );
    }
    refusals.push(
      // The other party of each offer and meet-up answering it, and a stranger trying to.
      [seller, 'POST', `/offers/${pending.id}/accept`],
      [seller, 'POST', `/offers/${pending.id}/counter`, { amount: 9 }],
      [stranger, 'POST', `/offers/${pending.id}/accept`],
      [seller, 'POST', `/meetups/${meetup.id}/accept`],
      [stranger, 'POST', `/meetups/${meetup.id}/accept`],
      [seller, 'POST', '/meetups', { listingId: id, roomId: accepted.roomId, ...place }],
      [seller, 'POST', `/listings/${id}/handoff`, { code }],
    );
    for (const [who, method, url, body] of refusals) {
      const res = await call(t, who, method, url, body);
      expect([res.statusCode, res.json()], `${who.firstName} ${method} ${url}`).toEqual([404, gone]);
    }
    // The unknown-listing answer of the favourites is the same message.
    expect(gone.message).toBe(MESSAGES.listingNotFound);
    // The saved list no longer shows its name, text or photos.
    const saved = await call(t, buyer, 'GET', '/listings/saved');
    expect(saved.json()).toEqual([]);
    expect(saved.body).not.toContain('Fake watch');
    // No deal was recorded: nobody can review anyone for it.
    const deals = await t.app.ctx.db.kysely
      .selectFrom('deals')
      .select('id')
      .where('listing_id', '=', id)
      .execute();
    expect(deals).toEqual([]);
  });
});
