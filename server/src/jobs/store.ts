import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { DueLane } from './rounds.js';

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
    campusId: number;
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
      // Named here, not left to the scope: a job may be filed for a campus other than the scope's.
      campus_id: job.campusId,
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

/** `campusId` null: whichever campus holds the key (work across campuses only). */
export async function deleteByKey(db: Kysely<Database>, campusId: number | null, key: string): Promise<void> {
  let q = db.deleteFrom('jobs').where('key', '=', key).where('failed_at', 'is', null);
  if (campusId !== null) q = q.where('campus_id', '=', campusId);
  await q.execute();
}

type JobFilter = { now: number; types?: readonly string[] };

/** Pending, due, and not held by a live claim. */
function due<Q extends SelectQueryBuilder<Database, 'jobs', object>>(q: Q, f: JobFilter): Q {
  let out = q
    .where('failed_at', 'is', null)
    .where('run_at', '<=', f.now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', f.now)])) as Q;
  if (f.types) out = out.where('type', 'in', f.types.length ? [...f.types] : ['']) as Q;
  return out;
}

/**
 * The campuses with due jobs of the highest priority that has any (the worker's round, rounds.ts).
 * One probe per campus and lane, each the first entry of a range of jobs_campus_lane (campus,
 * failed, priority, run_at): the cost does not grow with the number of jobs waiting, so a surge
 * of ten thousand jobs costs the same to look at as one.
 */
export async function dueLanes(
  db: Kysely<Database>,
  f: JobFilter & { priorities: readonly number[] },
): Promise<DueLane[]> {
  for (const priority of [...f.priorities].sort((a, b) => b - a)) {
    const rows = await db
      .selectFrom('campuses')
      .select('campuses.id')
      .where(({ exists, selectFrom }) =>
        exists(
          due(selectFrom('jobs'), f)
            .select('jobs.id')
            .whereRef('jobs.campus_id', '=', 'campuses.id')
            .where('jobs.priority', '=', priority),
        ),
      )
      .execute();
    if (rows.length > 0) return rows.map((r) => ({ campusId: Number(r.id), top: priority }));
  }
  return [];
}

/**
 * Claims up to `limit` due jobs of one campus and priority, oldest first, in one atomic statement.
 * PostgreSQL: FOR UPDATE SKIP LOCKED makes concurrent claimers pass over each other's rows instead
 * of waiting or double-claiming. SQLite: one writer at a time, so the UPDATE … WHERE id IN
 * (SELECT …) is atomic as it stands. The index jobs_campus_lane (campus, failed, priority, run_at)
 * serves the selection.
 */
export async function claimDue(
  db: Db,
  claim: JobFilter & {
    campusId: number;
    priority: number;
    lockedUntil: number;
    workerId: string;
    limit: number;
  },
): Promise<ClaimedJob[]> {
  const k = db.kysely;
  const picked = due(k.selectFrom('jobs'), claim)
    .select('id')
    .where('campus_id', '=', claim.campusId)
    .where('priority', '=', claim.priority)
    .orderBy('run_at')
    .orderBy('id')
    .limit(claim.limit);
  const rows = await k
    .updateTable('jobs')
    .set({
      locked_until: claim.lockedUntil,
      locked_by: claim.workerId,
      attempts: sql<number>`attempts + 1`,
    })
    .where('id', 'in', db.dialect === 'postgres' ? picked.forUpdate().skipLocked() : picked)
    .returning(['id', 'type', 'payload', 'attempts', 'max_attempts', 'campus_id'])
    .execute();
  return rows.map((r) => ({ ...r, campus_id: Number(r.campus_id) })).sort((a, b) => a.id - b.id);
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
