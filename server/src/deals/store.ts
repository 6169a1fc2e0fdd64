import { centsToDollars, type ChatMessage, type Deal, type Meetup, type Offer } from '@campus/contract';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, DealsTable, MeetupsTable, OffersTable } from '../db/schema.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type OfferRow = Selectable<OffersTable>;
export type MeetupRow = Selectable<MeetupsTable>;
export type DealRow = Selectable<DealsTable>;

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

export function toOffer(r: OfferRow): Offer {
  return {
    id: r.id,
    listingId: r.listing_id,
    roomId: r.room_id,
    buyerId: r.buyer_id,
    byId: r.by_id,
    amount: centsToDollars(r.amount_cents),
    status: r.status,
    createdAt: iso(r.created_at),
    expiresAt: iso(r.expires_at),
  };
}

export function toMeetup(r: MeetupRow): Meetup {
  return {
    id: r.id,
    listingId: r.listing_id,
    roomId: r.room_id,
    proposerId: r.proposer_id,
    spotId: r.spot_id,
    place: r.place,
    startsAt: iso(r.starts_at),
    status: r.status,
    createdAt: iso(r.created_at),
    reportedUserId: r.reported_user_id,
  };
}

export function toDeal(r: DealRow): Deal {
  return {
    id: r.id,
    listingId: r.listing_id,
    listingName: r.listing_name,
    sellerId: r.seller_id,
    buyerId: r.buyer_id,
    price: centsToDollars(r.price_cents),
    completedAt: iso(r.completed_at),
  };
}

/**
 * Loads a tradable listing and locks its row for the rest of the transaction (PostgreSQL `FOR
 * UPDATE`; SQLite has one writer, and deals transactions write first, see DealsTx). Every deals
 * route goes through this (or findListing), so two processes answering offers on one listing take
 * turns, and a listing a moderator removed is not found at all: the same 404 as an unknown id for
 * offers, meet-ups and hand-off alike. On PostgreSQL a request that waited for the removal's lock
 * re-checks the condition on the removed row, so it cannot slip in behind the removal.
 */
export function lockListing(db: Executor, id: number, postgres: boolean) {
  let q = db
    .selectFrom('listings')
    .innerJoin('users', 'users.id', 'listings.seller_id')
    .select([
      'listings.id',
      'listings.name',
      'listings.seller_id',
      'listings.price_cents',
      'listings.status',
      'listings.reserved_buyer_id',
      'listings.accepted_offer_id',
      'users.first_name as seller_first_name',
    ])
    .where('listings.id', '=', id)
    .where((eb) =>
      eb.or([eb('listings.moderation', 'is', null), eb('listings.moderation', '!=', 'REMOVED')]),
    );
  if (postgres) q = q.forUpdate('listings');
  return q.executeTakeFirst();
}

/** The tradable listing without a lock (reads outside a state change). */
export function findListing(db: Executor, id: number) {
  return lockListing(db, id, false);
}
export type DealListing = NonNullable<Awaited<ReturnType<typeof lockListing>>>;

export function findOffer(db: Executor, id: number) {
  return db.selectFrom('offers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findMeetup(db: Executor, id: number) {
  return db.selectFrom('meetups').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function firstNames(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.first_name]));
}

export interface RoomTopic {
  roomId: string;
  lowUserId: number;
  highUserId: number;
  buyerId: number;
  sellerId: number;
  listingId: number;
}

/** Creates the pair's room when they have not chatted yet (offers point at it before its first card). */
export async function ensureRoom(db: Executor, topic: RoomTopic, at: number): Promise<void> {
  await db
    .insertInto('chat_rooms')
    .values({
      id: topic.roomId,
      low_user_id: topic.lowUserId,
      high_user_id: topic.highUserId,
      buyer_id: topic.buyerId,
      seller_id: topic.sellerId,
      listing_id: topic.listingId,
      message_count: 0,
      created_at: at,
      last_activity_at: at,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Posts a card or system message into a room inside the caller's transaction, creating the room
 * when the two have not chatted yet (the first offer opens it). senderId 0 = the app itself (timers).
 */
export async function insertEventMessage(
  db: Executor,
  topic: RoomTopic,
  m: {
    senderId: number;
    kind: 'offer' | 'meetup' | 'system';
    content: string;
    offerId?: number;
    meetupId?: number;
    at: number;
    /** Anti-scam flags (safety) of text the sender typed, e.g. a meet-up's place. */
    flags?: readonly string[];
  },
) {
  await db
    .insertInto('chat_rooms')
    .values({
      id: topic.roomId,
      low_user_id: topic.lowUserId,
      high_user_id: topic.highUserId,
      buyer_id: topic.buyerId,
      seller_id: topic.sellerId,
      listing_id: topic.listingId,
      message_count: 1,
      created_at: m.at,
      last_activity_at: m.at,
    })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        buyer_id: topic.buyerId,
        seller_id: topic.sellerId,
        listing_id: topic.listingId,
        message_count: sql<number>`chat_rooms.message_count + 1`,
        last_activity_at: m.at,
      }),
    )
    .execute();
  return db
    .insertInto('chat_messages')
    .values({
      room_id: topic.roomId,
      sender_id: m.senderId,
      content: m.content,
      url: null,
      listing_id: topic.listingId,
      sent_at: m.at,
      kind: m.kind,
      offer_id: m.offerId ?? null,
      meetup_id: m.meetupId ?? null,
      flags: (m.flags ?? []).join(','),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * History answers each card in its current state: the offers and meet-ups the page's messages
 * point at, read in two queries whatever the page size.
 */
export async function attachCards(
  db: Executor,
  messages: ChatMessage[],
  rows: readonly { offer_id: number | null; meetup_id: number | null }[],
): Promise<ChatMessage[]> {
  const offerIds = [...new Set(rows.map((r) => r.offer_id).filter((v): v is number => v !== null))];
  const meetupIds = [...new Set(rows.map((r) => r.meetup_id).filter((v): v is number => v !== null))];
  if (offerIds.length === 0 && meetupIds.length === 0) return messages;
  const offers = offerIds.length
    ? new Map(
        (await db.selectFrom('offers').selectAll().where('id', 'in', offerIds).execute()).map((r) => [
          r.id,
          toOffer(r),
        ]),
      )
    : new Map<number, Offer>();
  const meetups = meetupIds.length
    ? new Map(
        (await db.selectFrom('meetups').selectAll().where('id', 'in', meetupIds).execute()).map((r) => [
          r.id,
          toMeetup(r),
        ]),
      )
    : new Map<number, Meetup>();
  return messages.map((m, i) => {
    const row = rows[i];
    const offer = row?.offer_id != null ? offers.get(row.offer_id) : undefined;
    const meetup = row?.meetup_id != null ? meetups.get(row.meetup_id) : undefined;
    return { ...m, ...(offer ? { offer } : {}), ...(meetup ? { meetup } : {}) };
  });
}
