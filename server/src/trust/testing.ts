/** Test helpers for the trust module (its *.test.ts files only). */
import { randomBytes } from 'node:crypto';
import { campusOfUser, type Student, type TestApp } from '../../test/helper.js';

/**
 * A confirmed deal as the deals module records it after a right hand-off code. Inserted directly:
 * these tests are about what follows a deal (reviews, profiles), not how it is made.
 */
let dealListingSeq = 0;

export async function insertDeal(
  t: TestApp,
  seller: Pick<Student, 'id'>,
  buyer: Pick<Student, 'id'>,
  options: { completedAt?: number; listingName?: string; priceCents?: number } = {},
): Promise<number> {
  const row = await t.app.ctx.db.kysely
    .insertInto('deals')
    .values({
      // A listing carries at most one deal (unique index): each deal gets its own listing id.
      listing_id: 1_000_000 + ++dealListingSeq,
      listing_name: options.listingName ?? 'Desk lamp',
      seller_id: seller.id,
      buyer_id: buyer.id,
      price_cents: options.priceCents ?? 1500,
      completed_at: options.completedAt ?? t.clock.now(),
      offer_id: null,
      campus_id: await campusOfUser(t, seller.id),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A chat room between two students (buyer writes first in the usual flow). */
export async function insertRoom(t: TestApp, buyer: Pick<Student, 'id'>, seller: Pick<Student, 'id'>) {
  const id = `r-${randomBytes(8).toString('hex')}`;
  await t.app.ctx.db.kysely
    .insertInto('chat_rooms')
    .values({
      id,
      low_user_id: Math.min(buyer.id, seller.id),
      high_user_id: Math.max(buyer.id, seller.id),
      buyer_id: buyer.id,
      seller_id: seller.id,
      listing_id: null,
      message_count: 0,
      created_at: t.clock.now(),
      last_activity_at: t.clock.now(),
      campus_id: await campusOfUser(t, buyer.id),
    })
    .execute();
  return id;
}

export async function insertMessage(
  t: TestApp,
  roomId: string,
  sender: Pick<Student, 'id'>,
  sentAt: number,
  kind: 'text' | 'system' = 'text',
): Promise<void> {
  await t.app.ctx.db.kysely
    .insertInto('chat_messages')
    .values({
      room_id: roomId,
      sender_id: sender.id,
      content: kind === 'system' ? 'Maya accepted your offer' : 'Hi! Is it still available?',
      url: null,
      listing_id: null,
      sent_at: sentAt,
      kind,
      offer_id: null,
      meetup_id: null,
      campus_id: await campusOfUser(t, sender.id),
    })
    .execute();
}

/** A meet-up the deals module marked NO_SHOW, reported against `absent`. */
export async function insertNoShow(
  t: TestApp,
  listingId: number,
  roomId: string,
  absent: Pick<Student, 'id'>,
  reporter: Pick<Student, 'id'>,
): Promise<void> {
  const now = t.clock.now();
  await t.app.ctx.db.kysely
    .insertInto('meetups')
    .values({
      listing_id: listingId,
      room_id: roomId,
      proposer_id: reporter.id,
      spot_id: null,
      place: 'Library entrance',
      starts_at: now,
      status: 'NO_SHOW',
      created_at: now,
      updated_at: now,
      reported_user_id: absent.id,
      reported_by_id: reporter.id,
      campus_id: await campusOfUser(t, reporter.id),
    })
    .execute();
}
