import type { Claim, ClaimDraw } from '@campus/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { requireCampusId } from '../db/campus-scope.js';
import type { ClaimDrawsTable, ClaimsTable, Database } from '../db/schema.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type ClaimRow = Selectable<ClaimsTable>;
export type ClaimDrawRow = Selectable<ClaimDrawsTable>;
type Names = Map<number, { firstName: string; lastName: string }>;

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();
/** Every read is limited to the campus of the work in hand, explicitly on both databases (§E). */
const campus = (): number => requireCampusId();

/** The one place claim rows become API claims; `names` adds the claimant (the giver's view). */
export function toClaim(r: ClaimRow, names?: Names): Claim {
  const who = names?.get(r.claimant_id);
  return {
    id: r.id,
    listingId: r.listing_id,
    claimantId: r.claimant_id,
    note: r.note,
    status: r.status,
    createdAt: iso(r.created_at),
    position: r.position,
    ...(who ? { claimant: { id: r.claimant_id, ...who } } : {}),
  };
}

const ids = (text: string): number[] => JSON.parse(text) as number[];

export function toDraw(r: ClaimDrawRow): ClaimDraw {
  return {
    id: r.id,
    listingId: r.listing_id,
    method: r.method,
    byId: r.by_id,
    poolClaimIds: ids(r.pool_ids),
    orderClaimIds: ids(r.order_ids),
    skippedClaimIds: ids(r.skipped_ids),
    winnerClaimId: r.winner_claim_id,
    at: iso(r.at),
  };
}

export function findClaim(db: Executor, id: number) {
  return db
    .selectFrom('claims')
    .selectAll()
    .where('id', '=', id)
    .where('campus_id', '=', campus())
    .executeTakeFirst();
}

export function findClaimOf(db: Executor, listingId: number, claimantId: number) {
  return db
    .selectFrom('claims')
    .selectAll()
    .where('listing_id', '=', listingId)
    .where('claimant_id', '=', claimantId)
    .where('campus_id', '=', campus())
    .executeTakeFirst();
}

export function claimsOfListing(db: Executor, listingId: number, statuses?: ClaimRow['status'][]) {
  let q = db
    .selectFrom('claims')
    .selectAll()
    .where('listing_id', '=', listingId)
    .where('campus_id', '=', campus());
  if (statuses) q = q.where('status', 'in', statuses);
  return q.orderBy('id', 'asc').execute();
}

/** A page of a listing's claims, newest first; `claimantId` limits it to one student's. */
export async function pageOfClaims(
  db: Executor,
  q: { listingId: number; claimantId?: number; beforeId?: number; limit: number },
) {
  let query = db
    .selectFrom('claims')
    .selectAll()
    .where('listing_id', '=', q.listingId)
    .where('campus_id', '=', campus());
  if (q.claimantId !== undefined) query = query.where('claimant_id', '=', q.claimantId);
  if (q.beforeId !== undefined) query = query.where('id', '<', q.beforeId);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
  const page = rows.slice(0, q.limit);
  return { rows: page, next: rows.length > q.limit ? page[page.length - 1]!.id : undefined };
}

export function decisionOf(db: Executor, listingId: number) {
  return db
    .selectFrom('claim_draws')
    .selectAll()
    .where('listing_id', '=', listingId)
    .where('campus_id', '=', campus())
    .orderBy('id', 'asc')
    .executeTakeFirst();
}

export function drawsOf(db: Executor, listingId: number) {
  return db
    .selectFrom('claim_draws')
    .selectAll()
    .where('listing_id', '=', listingId)
    .where('campus_id', '=', campus())
    .orderBy('id', 'asc')
    .execute();
}

/**
 * OPEN claims a student holds on giveaways not decided yet: the limit counts these, so waiting in
 * line behind a winner does not stop a student from claiming elsewhere.
 */
export async function openUndecidedCount(db: Executor, claimantId: number): Promise<number> {
  const row = await db
    .selectFrom('claims')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('claimant_id', '=', claimantId)
    .where('campus_id', '=', campus())
    .where('status', '=', 'OPEN')
    .where('position', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Free items the student won (chosen, including pickups that later passed on) since `since`. */
export async function winsSince(db: Executor, claimantId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom('claims')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('claimant_id', '=', claimantId)
    .where('campus_id', '=', campus())
    .where('won_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function names(db: Executor, userIds: readonly number[]): Promise<Names> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name'])
    .where('id', 'in', [...userIds])
    .where('campus_id', '=', campus())
    .execute();
  return new Map(rows.map((r) => [r.id, { firstName: r.first_name, lastName: r.last_name }]));
}

/** Free items a student could still claim nearby (the kind word to those who did not get one). */
export async function otherFreeItems(db: Executor, userId: number, exceptListingId: number): Promise<number> {
  const row = await db
    .selectFrom('listings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campus_id', '=', campus())
    .where('price_cents', '=', 0)
    .where('status', '=', 'AVAILABLE')
    .where('moderation', 'is', null)
    .where('seller_id', '!=', userId)
    .where('id', '!=', exceptListingId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Serialises one student's claims and wins on PostgreSQL (the limits count, then write). */
export async function lockStudent(db: Executor, userId: number, postgres: boolean): Promise<void> {
  if (!postgres) return;
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}
