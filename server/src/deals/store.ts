import { centsToDollars, type Deal, type Meetup, type Offer } from '@campus/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { PostTopic } from '../chat/index.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { Database, DealsTable, MeetupsTable, OffersTable } from '../db/schema.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type OfferRow = Selectable<OffersTable>;
export type MeetupRow = Selectable<MeetupsTable>;
export type DealRow = Selectable<DealsTable>;

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

/**
 * Every deals read by id is limited to the campus of the work in hand (the student's, or the
 * job's): another campus's listing, offer or meet-up is not found, exactly like an unknown id
 * (features.md §E). Explicit on both databases; PostgreSQL's row-level security is a second line.
 */
const campus = (): number => requireCampusId();

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
    ...(r.claim_id === null ? {} : { claimId: r.claim_id }),
    holdUntil: r.hold_until ?? null,
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

/** A deal as answers show it; `items` defaults to the deal's own listing (single-listing deal). */
export function toDeal(r: DealRow, items?: Deal['items']): Deal {
  return {
    id: r.id,
    listingId: r.listing_id,
    listingName: r.listing_name,
    sellerId: r.seller_id,
    buyerId: r.buyer_id,
    price: centsToDollars(r.price_cents),
    completedAt: iso(r.completed_at),
    items: items ?? [{ listingId: r.listing_id, listingName: r.listing_name }],
  };
}

/**
 * Loads a tradable listing and locks its row for the rest of the transaction (PostgreSQL `FOR
 * UPDATE`; SQLite has one writer, and deals transactions write first, see DealsTx). Every deals
 * route goes through this (or findListing), so two processes answering offers on one listing take
 * turns, and a listing a moderator removed is not found at all: the same 404 as an unknown id for
 * offers, meet-ups and hand-off alike. On PostgreSQL a request that waited for the removal's lock
 * re-checks the condition on the removed row, so it cannot slip in behind the removal. A listing of
 * another campus is not found either.
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
    .where('listings.campus_id', '=', campus())
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
  return db
    .selectFrom('offers')
    .selectAll()
    .where('id', '=', id)
    .where('campus_id', '=', campus())
    .executeTakeFirst();
}

export function findMeetup(db: Executor, id: number) {
  return db
    .selectFrom('meetups')
    .selectAll()
    .where('id', '=', id)
    .where('campus_id', '=', campus())
    .executeTakeFirst();
}

export async function firstNames(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name'])
    .where('id', 'in', [...ids])
    .where('campus_id', '=', campus())
    .execute();
  return new Map(rows.map((r) => [r.id, r.first_name]));
}

/** A room about a listing: the pair, their roles, the listing (chat's topic for posting). */
export type RoomTopic = PostTopic;
