import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';

export interface ClaimedJob {
  id: number;
  type: string;
  payload: string;
  /** Including the attempt just claimed. */
  attempts: number;
  max_attempts: number;
  /** The campus the job works for: it runs in that campus's scope (db/campus-scope.ts). */
  campus_id: number;
}

export async function insertJob(
  db: Kysely<Database>,
  job: {
    type: string;
    payload: string;
    runAt: number;
    key: string | null;
    maxAttempts: number;
    priority: number;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      type: job.type,
      payload: job.payload,
      run_at: job.runAt,
      max_attempts: job.maxAttempts,
      key: job.key,
      priority: job.priority,
      created_at: job.now,
    })
    // Same key while pending: the first one stands (dedupe). NULL keys never conflict.
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

export async function deleteByKey(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('jobs').where('key', '=', key).where('failed_at', 'is', null).execute();
}

/**
 * Claims up to `limit` due jobs in one atomic statement. PostgreSQL: FOR UPDATE SKIP LOCKED makes
 * concurrent claimers pass over each other's rows instead of waiting or double-claiming. SQLite: one
 * writer at a time, so the UPDATE … WHERE id IN (SELECT …) is atomic as it stands.
 */
export async function claimDue(
  db: Db,
  claim: { now: number; lockedUntil: number; workerId: string; limit: number; types?: readonly string[] },
): Promise<ClaimedJob[]> {
  const k = db.kysely;
  let due = k
    .selectFrom('jobs')
    .select('id')
    .where('failed_at', 'is', null)
    .where('run_at', '<=', claim.now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', claim.now)]))
    .orderBy('priority', 'desc')
    .orderBy('run_at')
    .orderBy('id')
    .limit(claim.limit);
  if (claim.types) due = due.where('type', 'in', claim.types.length ? [...claim.types] : ['']);
  const rows = await k
    .updateTable('jobs')
    .set({
      locked_until: claim.lockedUntil,
      locked_by: claim.workerId,
      attempts: sql<number>`attempts + 1`,
    })
    .where('id', 'in', db.dialect === 'postgres' ? due.forUpdate().skipLocked() : due)
    .returning(['id', 'type', 'payload', 'attempts', 'max_attempts', 'campus_id'])
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/** The workers holding a claim right now (few: one per process). */
export async function claimOwners(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('locked_by')
    .distinct()
    .where('locked_by', 'is not', null)
    .where('failed_at', 'is', null)
    .execute();
  return rows.map((r) => r.locked_by).filter((v): v is string => v !== null);
}

/** Frees every claim of these (dead) workers: their jobs are due again at once. */
export async function releaseClaims(db: Kysely<Database>, owners: readonly string[]): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({ locked_until: null, locked_by: null })
    .where('locked_by', 'in', [...owners])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Extends this worker's claims on the jobs it is still running. */
export async function renewClaims(
  db: Kysely<Database>,
  workerId: string,
  ids: readonly number[],
  lockedUntil: number,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ locked_until: lockedUntil })
    .where('locked_by', '=', workerId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Done: the row goes (only if this worker still holds it; a cancelled job is already gone). */
export async function complete(db: Kysely<Database>, id: number, workerId: string): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', id).where('locked_by', '=', workerId).execute();
}

/** Failed: back to pending at retryAt, or kept as failed for good (its key freed) when retryAt is null. */
export async function fail(
  db: Kysely<Database>,
  id: number,
  workerId: string,
  f: { error: string; now: number; retryAt: number | null },
): Promise<void> {
  await db
    .updateTable('jobs')
    .set(
      f.retryAt === null
        ? { locked_until: null, locked_by: null, last_error: f.error, failed_at: f.now, key: null }
        : { locked_until: null, locked_by: null, last_error: f.error, run_at: f.retryAt },
    )
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute();
}
