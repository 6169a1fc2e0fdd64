/** Test helpers for the moving-out module. */
import { dayOf, type Listing, type NotificationPage } from '@campus/contract';
import type { InjectOptions } from 'fastify';
import { asStudent, type Student, type TestApp } from '../../test/helper.js';
import { campusOfUser } from '../../test/campuses.js';
import { JOB_DEADLINE, JOB_PRICE_STEP } from './index.js';

export const DAY = 24 * 3_600_000;
export const DETROIT = 'America/Detroit';

/** The campus day `days` after the test clock's now (YYYY-MM-DD, Detroit: MSU's zone). */
export function dayAhead(t: TestApp, days: number, zone = DETROIT): string {
  return dayOf(t.clock.nowMs + days * DAY, zone);
}

/**
 * A request as `who` (or anonymous). The token is issued at the test clock's now: these tests move
 * the clock by days, past a token's lifetime, and a student would simply have logged in again.
 */
export async function call(
  t: TestApp,
  who: Student | null,
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
) {
  const options: InjectOptions = {
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
  };
  if (!who) return t.app.inject(options);
  const token = await t.app.ctx.tokens.issue({ userId: who.id, email: who.email, tokenVersion: 0 });
  return asStudent(t, { token }, options);
}

/** A listing of `seller` at `cents`, written straight to the database (no photo needed here). */
export async function listingAt(t: TestApp, sellerId: number, name: string, cents: number): Promise<number> {
  const now = t.clock.nowMs;
  const row = await t.app.ctx.db.kysely
    .insertInto('listings')
    .values({
      seller_id: sellerId,
      name,
      description: 'Must go before I move out',
      category: 'LIFESTYLE',
      price_cents: cents,
      image_key: null,
      thumb_key: null,
      is_sold: 0,
      created_at: now,
      updated_at: now,
      campus_id: await campusOfUser(t, sellerId),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function listing(t: TestApp, who: Student, id: number): Promise<Listing> {
  const res = await call(t, who, 'GET', `/listing/${id}`);
  if (res.statusCode !== 200) throw new Error(`listing ${id}: ${res.statusCode} ${res.body}`);
  return res.json() as Listing;
}

export async function feedIds(t: TestApp, who: Student, query = ''): Promise<number[]> {
  const res = await call(t, who, 'GET', `/listings/moving-out${query}`);
  if (res.statusCode !== 200) throw new Error(`feed: ${res.statusCode} ${res.body}`);
  return (res.json() as Listing[]).map((l) => l.id);
}

export async function browseIds(t: TestApp, who: Student): Promise<number[]> {
  const res = await call(t, who, 'GET', '/listings/filters?limit=100');
  return (res.json() as Listing[]).map((l) => l.id);
}

export async function notices(t: TestApp, who: Student, type: string) {
  const res = await call(t, who, 'GET', '/notifications?limit=50');
  return (res.json() as NotificationPage).notifications.filter((n) => n.type === type);
}

/** Runs the move-out timers that are due at the test clock's now. */
export function runMoveOutJobs(t: TestApp): Promise<number> {
  return t.app.ctx.jobs.runDue({ types: [JOB_PRICE_STEP, JOB_DEADLINE] });
}
