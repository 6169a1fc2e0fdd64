import type { MoveOutPlan } from '@campus/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { requireCampusId } from '../db/campus-scope.js';
import type { Database, MoveOutPlansTable, MoveOutPricesTable } from '../db/schema.js';
import type { ListingWithSeller } from '../listings/index.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type PlanRow = Selectable<MoveOutPlansTable>;
export type PriceRow = Selectable<MoveOutPricesTable>;

/** Every read names the campus of the work in hand (PostgreSQL's row security is a second line). */
const campus = (): number => requireCampusId();

export function toPlan(r: PlanRow): MoveOutPlan {
  return {
    date: r.date,
    autoDrop: r.auto_drop === 1,
    floorPercent: r.floor_percent,
    thenFree: r.then_free === 1,
  };
}

export function findPlan(db: Executor, userId: number): Promise<PlanRow | undefined> {
  return db
    .selectFrom('move_out_plans')
    .selectAll()
    .where('user_id', '=', userId)
    .where('campus_id', '=', campus())
    .executeTakeFirst();
}

/** Creates or replaces the student's plan; its version moves on, so older timers find it stale. */
export async function savePlan(
  db: Executor,
  userId: number,
  plan: MoveOutPlan & { deadlineAt: number },
  now: number,
): Promise<PlanRow> {
  const values = {
    date: plan.date,
    deadline_at: plan.deadlineAt,
    auto_drop: plan.autoDrop ? 1 : 0,
    floor_percent: plan.floorPercent,
    then_free: plan.thenFree ? 1 : 0,
    done_at: null,
    updated_at: now,
  };
  const existing = await findPlan(db, userId);
  if (existing) {
    return db
      .updateTable('move_out_plans')
      .set({ ...values, version: existing.version + 1 })
      .where('id', '=', existing.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  return db
    .insertInto('move_out_plans')
    .values({ ...values, user_id: userId, version: 1, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Clears the plan and what the steps remembered about the student's prices. */
export async function deletePlan(db: Executor, userId: number): Promise<boolean> {
  await db
    .deleteFrom('move_out_prices')
    .where('seller_id', '=', userId)
    .where('campus_id', '=', campus())
    .execute();
  const res = await db
    .deleteFrom('move_out_plans')
    .where('user_id', '=', userId)
    .where('campus_id', '=', campus())
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export function markDone(db: Executor, planId: number, now: number) {
  return db
    .updateTable('move_out_plans')
    .set({ done_at: now, updated_at: now })
    .where('id', '=', planId)
    .execute();
}

export function findPrice(db: Executor, listingId: number): Promise<PriceRow | undefined> {
  return db
    .selectFrom('move_out_prices')
    .selectAll()
    .where('listing_id', '=', listingId)
    .where('campus_id', '=', campus())
    .executeTakeFirst();
}

export async function recordStep(
  db: Executor,
  existing: PriceRow | undefined,
  row: { listingId: number; sellerId: number; originalCents: number; lastAutoCents: number; step: number },
  sellerPriced: boolean,
  now: number,
): Promise<void> {
  const values = {
    original_cents: row.originalCents,
    last_auto_cents: row.lastAutoCents,
    step: row.step,
    seller_priced: sellerPriced ? 1 : 0,
    updated_at: now,
  };
  if (existing) {
    await db.updateTable('move_out_prices').set(values).where('id', '=', existing.id).execute();
  } else {
    await db
      .insertInto('move_out_prices')
      .values({ ...values, listing_id: row.listingId, seller_id: row.sellerId })
      .execute();
  }
}

/** Keyset of the moving-out feed: the plan's deadline, then the listing id (both ascending). */
export interface FeedCursor {
  deadlineAt: number;
  id: number;
}

/**
 * The campus's moving-out feed: listings still on the market (AVAILABLE, not moderated, not taken
 * off) of students with an open plan, soonest deadline first; blocked sellers left out, as browse
 * does. Optionally one seller's (their profile's "Moving out" shelf).
 */
export function feed(
  db: Executor,
  q: { excludeSellers: readonly number[]; sellerId?: number; after?: FeedCursor; limit: number },
): Promise<(ListingWithSeller & { deadline_at: number })[]> {
  const campusId = campus();
  let query = db
    .selectFrom('listings')
    .innerJoin('move_out_plans', 'move_out_plans.user_id', 'listings.seller_id')
    .innerJoin('users', 'users.id', 'listings.seller_id')
    .selectAll('listings')
    .select(['users.first_name', 'users.last_name', 'move_out_plans.deadline_at'])
    .where('listings.campus_id', '=', campusId)
    .where('move_out_plans.campus_id', '=', campusId)
    .where('move_out_plans.done_at', 'is', null)
    .where('listings.status', '=', 'AVAILABLE')
    .where('listings.moderation', 'is', null)
    .where('listings.unlisted_at', 'is', null);
  if (q.excludeSellers.length) query = query.where('listings.seller_id', 'not in', [...q.excludeSellers]);
  if (q.sellerId !== undefined) query = query.where('listings.seller_id', '=', q.sellerId);
  const after = q.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('move_out_plans.deadline_at', '>', after.deadlineAt),
        eb.and([eb('move_out_plans.deadline_at', '=', after.deadlineAt), eb('listings.id', '>', after.id)]),
      ]),
    );
  }
  return query
    .orderBy('move_out_plans.deadline_at', 'asc')
    .orderBy('listings.id', 'asc')
    .limit(q.limit)
    .execute() as Promise<(ListingWithSeller & { deadline_at: number })[]>;
}

/**
 * Listings held for the fall (features.md §H "Hold for fall") that the student sells or is
 * holding: RESERVED by an accepted offer with a hold day, soonest day first. Few per student, so
 * one page (at most `limit`).
 */
export function heldFor(db: Executor, userId: number, limit: number): Promise<ListingWithSeller[]> {
  const campusId = campus();
  return db
    .selectFrom('listings')
    .innerJoin('offers', 'offers.id', 'listings.accepted_offer_id')
    .innerJoin('users', 'users.id', 'listings.seller_id')
    .selectAll('listings')
    .select(['users.first_name', 'users.last_name'])
    .where('listings.campus_id', '=', campusId)
    .where('offers.campus_id', '=', campusId)
    .where('listings.status', '=', 'RESERVED')
    .where('offers.status', '=', 'ACCEPTED')
    .where('offers.hold_until', 'is not', null)
    .where((eb) =>
      eb.or([eb('listings.seller_id', '=', userId), eb('listings.reserved_buyer_id', '=', userId)]),
    )
    .orderBy('offers.hold_until', 'asc')
    .orderBy('listings.id', 'asc')
    .limit(limit)
    .execute();
}
