import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { Database } from '../db/schema.js';
import { registerOrphanSweep } from './orphans.js';

/** Makes the responsive variants of one stored photo (enqueued by storeJpeg). */
export const MEDIA_VARIANTS_JOB = 'media.variants';
/** The one-off backfill for photos stored before variants existed (enqueued by migration 009). */
export const MEDIA_BACKFILL_JOB = 'media.variants.backfill';
export const MEDIA_BACKFILL_KEY = 'media-variants-backfill';

/** Photos per backfill run: a run stays far below the job lease even on a busy machine. */
const BACKFILL_BATCH = 10;

/**
 * Removes stored photos by key, with their variants (missing files are fine, so a repeat is
 * harmless). Enqueued in the transaction that forgets the photo, so the files go if and only if
 * that commits, even when the process stops right after (media/index.ts removeLater).
 */
export const MEDIA_REMOVE_JOB = 'media.remove';

export interface RemovePayload {
  keys: string[];
}

export interface VariantsPayload {
  key: string;
}
export interface BackfillPayload {
  /** Continue after this photo key ('' = from the start). */
  after?: string;
}

/**
 * Jobs run in the campus they were filed under, which is the campus of the photo (a bucket keeps
 * it under that campus's slug). A bucket that fails makes the job fail, so it runs again later:
 * a removal is never lost.
 */
export function registerMediaJobs(ctx: AppContext, options: { orphanPageSize?: number } = {}): void {
  const storage = ctx.photoStorage;
  registerOrphanSweep(ctx, options.orphanPageSize);
  ctx.jobs.register<VariantsPayload>(MEDIA_VARIANTS_JOB, ({ key }) =>
    storage.ensureVariants(requireCampusId(), key),
  );
  ctx.jobs.register<RemovePayload>(MEDIA_REMOVE_JOB, ({ keys }) => storage.remove(requireCampusId(), keys));
  ctx.jobs.register<BackfillPayload>(MEDIA_BACKFILL_JOB, async ({ after = '' }) => {
    const next = await storage.backfillVariants(after, BACKFILL_BATCH);
    // The rest in a new job: each run is short, and a restart resumes where it stopped.
    if (next) {
      await ctx.jobs.enqueue<BackfillPayload>(
        ctx.db.kysely,
        MEDIA_BACKFILL_JOB,
        { after: next },
        { key: `${MEDIA_BACKFILL_KEY}:${next}` },
      );
    }
  });
}

/**
 * Queues the backfill without a running app (the demo seed stores photos with no job queue): the
 * app's worker makes the variants once it starts. A backfill already pending is kept.
 *
 * The backfill sweeps the uploads folder, which every campus's photos share (the files are not
 * campus data; their rows are), or the whole bucket (every campus's prefix), so it is one job, filed under one campus like every job: the
 * campus given, else the one in scope. Its follow-up runs stay in that campus.
 */
export async function queueVariantBackfill(
  db: Kysely<Database>,
  now: number,
  campusId: number = requireCampusId(),
): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      campus_id: campusId,
      type: MEDIA_BACKFILL_JOB,
      payload: '{}',
      run_at: now,
      max_attempts: 10,
      key: MEDIA_BACKFILL_KEY,
      created_at: now,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}
