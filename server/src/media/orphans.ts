import type { AppContext } from '../context.js';
import { acrossCampuses, requireCampusId } from '../db/campus-scope.js';
import { INCOMING_NAME, incomingDir } from './incoming.js';
import { removeStaleFiles } from './disk-listing.js';
import { namedKeys } from './named-keys.js';
import { uploadsDir } from './storage.js';

/**
 * The orphan sweep: stored images no row names any more, removed once a day.
 *
 * How one comes about: every writer records its photo's keys (with a job that removes the files
 * should the write fail) before it writes a file (media/index.ts storeJpeg, writePrepared), so a
 * file nobody names is one whose take-back or removal never ran — the process was killed between
 * the write and its take-back, a removal job gave up after a day of a bucket being away — or a
 * replaced avatar whose process died before queueing the old one's removal.
 *
 * Why a grace period: in the app rows come first, so a file being written is already named. Not
 * everywhere: the demo seed writes each photo just before its row, an upload is received into
 * DATA_DIR/uploads-incoming as it arrives, and a bucket dates its objects by its own clock, not
 * the app's. A file is only swept once it was last written ORPHAN_GRACE_MS ago (an hour: the
 * slowest of those takes seconds, and clocks may differ by minutes).
 *
 * One window it does not cover: while a new avatar is written, the old one is named by no row;
 * should that write fail, trust/service.ts puts the old keys back. A sweep reaching those old
 * files in exactly those seconds removes them, and the profile names a picture that is gone until
 * the student uploads another.
 *
 * Where: a bucket keeps each campus under its slug, so each campus has its own daily job, which
 * lists only `{slug}/` and checks only that campus's rows — one campus's sweep can never touch
 * another's objects. DATA_DIR/uploads is one folder for every campus (names carry no campus), so
 * on disk one job, filed under the default campus, sweeps it checking every campus's rows.
 *
 * Each run handles one page (ORPHAN_PAGE files) and files the rest as a new job: the job
 * worker waits for a round's jobs before the next round, so a long run would hold up e-mail. A
 * storage that fails fails the run, which is retried later from where it stopped; what it removed
 * before was orphaned anyway.
 */
export const MEDIA_ORPHANS_JOB = 'media.orphans';

/** A file younger than this (by its modification time) is never swept. */
export const ORPHAN_GRACE_MS = 3_600_000;
/**
 * Files per run. A bucket: one ListObjectsV2 page. The folder: each run streams the whole folder to
 * find the names after its cursor (≈ 0.7 s per 200,000 files here), so its pages are larger: at
 * 100,000 listings (≈ 800,000 files with variants) a day's sweep is some 80 runs of a few seconds.
 */
export const ORPHAN_PAGE = { bucket: 1000, disk: 10_000 } as const;

const DAY_MS = 86_400_000;
/** Daily at 03:00 UTC: night on the American campuses, before European mornings. */
const SWEEP_TIME_OF_DAY_MS = 3 * 3_600_000;

export interface OrphansPayload {
  /** Continue after this file ('' or absent: the daily run, from the start). */
  after?: string;
}

/** The daily run's time after `now`. */
export function nextSweepAt(now: number): number {
  return Math.floor((now - SWEEP_TIME_OF_DAY_MS) / DAY_MS + 1) * DAY_MS + SWEEP_TIME_OF_DAY_MS;
}

type SweepContext = Pick<
  AppContext,
  'campuses' | 'clock' | 'config' | 'db' | 'jobs' | 'logger' | 'photoStorage'
>;

/** The campuses whose job sweeps: each one with a bucket, the default one for the shared folder. */
export function sweepingCampuses(ctx: Pick<AppContext, 'campuses' | 'photoStorage'>): number[] {
  return ctx.photoStorage.kind === 'bucket' ? ctx.campuses.all().map((c) => c.id) : [ctx.campuses.default.id];
}

/**
 * Files a campus's sweep at `runAt` (default now). Keyed by campus and time: every process asks
 * at start-up and the daily run asks for the next, yet each run exists once.
 */
export async function queueOrphanSweep(ctx: SweepContext, campusId: number, runAt = ctx.clock()) {
  await ctx.jobs.enqueue<OrphansPayload>(
    ctx.db.kysely,
    MEDIA_ORPHANS_JOB,
    {},
    { key: `${MEDIA_ORPHANS_JOB}:${campusId}:${runAt}`, runAt, campusId },
  );
}

/** Start-up: the next daily sweep of every sweeping campus (app.ts). */
export async function scheduleOrphanSweeps(ctx: SweepContext): Promise<void> {
  const at = nextSweepAt(ctx.clock());
  for (const campusId of sweepingCampuses(ctx)) await queueOrphanSweep(ctx, campusId, at);
}

/**
 * Removes what a crashed process left in this process's working folders: received uploads
 * (DATA_DIR/uploads-incoming/*.part) and half-made variants (DATA_DIR/uploads.tmp), older than the
 * grace. A file being received is written to as it arrives, so its time stays fresh. Run at
 * start-up and by the default campus's daily sweep. Never throws.
 */
export async function sweepWorkingFiles(dataDir: string, now: number): Promise<number> {
  const before = now - ORPHAN_GRACE_MS;
  const parts = await removeStaleFiles(incomingDir(dataDir), (n) => INCOMING_NAME.test(n), before);
  const temps = await removeStaleFiles(`${uploadsDir(dataDir)}.tmp`, () => true, before);
  return parts + temps;
}

/**
 * One page of a campus's sweep: lists at most `limit` stored files after `after`, and removes
 * those older than the grace whose key no row names. Answers the cursor of the next page.
 */
export async function sweepOrphanPage(
  ctx: SweepContext,
  campusId: number,
  after: string,
  limit: number,
): Promise<{ removed: number; next: string | null }> {
  const storage = ctx.photoStorage;
  const cutoff = ctx.clock() - ORPHAN_GRACE_MS;
  const { files, next } = await storage.listStored(campusId, after, limit);
  const old = files.filter((f) => f.modifiedAt < cutoff);
  const keys = [...new Set(old.map((f) => f.key))];
  const db = ctx.db.kysely;
  // The shared folder: a file may be any campus's, so every campus's rows are asked.
  const named =
    storage.kind === 'disk'
      ? await acrossCampuses(() => namedKeys(db, keys, null))
      : await namedKeys(db, keys, campusId);
  const orphans = old.filter((f) => !named.has(f.key)).map((f) => f.ref);
  if (orphans.length > 0) {
    await storage.removeStored(campusId, orphans);
    ctx.logger.info({ campusId, removed: orphans.length, storage: storage.kind }, 'orphan images removed');
  }
  return { removed: orphans.length, next };
}

/** The sweep's job (registered with the other media jobs); `pageSize`: tests make it small. */
export function registerOrphanSweep(
  ctx: SweepContext,
  pageSize: number = ORPHAN_PAGE[ctx.photoStorage.kind],
): void {
  ctx.jobs.register<OrphansPayload>(MEDIA_ORPHANS_JOB, async ({ after = '' }) => {
    const campusId = requireCampusId();
    // A campus that no longer sweeps (the bucket was given up for the disk): its run ends here.
    if (!sweepingCampuses(ctx).includes(campusId)) return;
    if (after === '') {
      // Tomorrow's first, so a run that fails for good still leaves the next one filed.
      await queueOrphanSweep(ctx, campusId, nextSweepAt(ctx.clock()));
      if (campusId === ctx.campuses.default.id) await sweepWorkingFiles(ctx.config.dataDir, ctx.clock());
    }
    const { next } = await sweepOrphanPage(ctx, campusId, after, pageSize);
    if (next !== null) {
      await ctx.jobs.enqueue<OrphansPayload>(
        ctx.db.kysely,
        MEDIA_ORPHANS_JOB,
        { after: next },
        { key: `${MEDIA_ORPHANS_JOB}:${campusId}:after:${next}` },
      );
    }
  });
}
