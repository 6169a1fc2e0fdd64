import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  campusOfUser,
  createStudent,
  createTestApp,
  dialects,
  type TestApp,
} from '../../test/helper.js';
import { createListing } from '../chat/testing.js';

/** 005_deals: the constraints that keep deals consistent across processes, on both dialects. */
describe.each(dialects)('005_deals schema (%s)', (dialect) => {
  let t: TestApp;
  let sellerId: number;
  let buyerId: number;
  let listingId: number;
  let roomId: string;
  /** The students' campus: rows written straight into the database name it. */
  let campusId: number;
  const now = Date.now();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    sellerId = (await createStudent(t)).id;
    buyerId = (await createStudent(t)).id;
    listingId = await createListing(t, sellerId);
    roomId = sellerId < buyerId ? `${sellerId}:${buyerId}` : `${buyerId}:${sellerId}`;
    campusId = await campusOfUser(t, sellerId);
    await t.app.ctx.db.kysely
      .insertInto('chat_rooms')
      .values({
        id: roomId,
        low_user_id: Math.min(sellerId, buyerId),
        high_user_id: Math.max(sellerId, buyerId),
        buyer_id: buyerId,
        seller_id: sellerId,
        listing_id: listingId,
        message_count: 0,
        created_at: now,
        last_activity_at: now,
        campus_id: campusId,
      })
      .execute();
  });
  afterAll(() => t.close());

  const offer = (status: 'PENDING' | 'ACCEPTED' | 'DECLINED') =>
    t.app.ctx.db.kysely
      .insertInto('offers')
      .values({
        listing_id: listingId,
        room_id: roomId,
        buyer_id: buyerId,
        by_id: buyerId,
        amount_cents: 1000,
        status,
        created_at: now,
        expires_at: now + 1,
        updated_at: now,
        accepted_at: null,
        handoff_code: null,
        campus_id: campusId,
      })
      .execute();

  it('new listings are AVAILABLE and old messages are text', async () => {
    const row = await t.app.ctx.db.kysely
      .selectFrom('listings')
      .select(['status', 'is_sold'])
      .where('id', '=', listingId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'AVAILABLE', is_sold: 0 });
  });

  it('allows one PENDING offer per buyer per listing, any number of closed ones', async () => {
    await offer('PENDING');
    await expect(offer('PENDING')).rejects.toThrow();
    await offer('DECLINED');
    await offer('DECLINED');
  });

  it('allows one ACCEPTED offer per listing', async () => {
    await offer('ACCEPTED');
    await expect(offer('ACCEPTED')).rejects.toThrow();
  });

  it('allows one open meet-up per room and listing', async () => {
    const meetup = (status: 'PROPOSED' | 'CONFIRMED' | 'CANCELLED') =>
      t.app.ctx.db.kysely
        .insertInto('meetups')
        .values({
          listing_id: listingId,
          room_id: roomId,
          proposer_id: buyerId,
          spot_id: null,
          place: 'Library',
          starts_at: now,
          status,
          created_at: now,
          updated_at: now,
          reported_user_id: null,
          reported_by_id: null,
          campus_id: campusId,
        })
        .execute();
    await meetup('PROPOSED');
    await expect(meetup('CONFIRMED')).rejects.toThrow();
    await meetup('CANCELLED');
  });

  it('PUT /listings/sold keeps status and isSold consistent both ways', async () => {
    const seller = await createStudent(t);
    const id = await createListing(t, seller.id);
    const read = () =>
      t.app.ctx.db.kysely
        .selectFrom('listings')
        .select(['status', 'is_sold'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect((await asStudent(t, seller, { method: 'PUT', url: `/listings/sold/${id}` })).statusCode).toBe(200);
    expect(await read()).toEqual({ status: 'SOLD', is_sold: 1 });
    expect((await asStudent(t, seller, { method: 'PUT', url: `/listings/sold/${id}` })).statusCode).toBe(200);
    expect(await read()).toEqual({ status: 'AVAILABLE', is_sold: 0 });
  });
});
