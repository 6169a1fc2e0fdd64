import { sql, type Migration } from 'kysely';
import type { Db } from '../connection.js';

/**
 * Responsive image variants: no table (variant names derive from the photo's key, see
 * server/src/media/variants.ts). When listings with photos exist, this queues the one-off job that
 * makes the variants of every photo stored before variants existed (a fresh database has none, so
 * nothing is queued there). `run_at` 0: due at once, whatever the clock says. Type and key are
 * media/jobs.ts' MEDIA_BACKFILL_JOB and MEDIA_BACKFILL_KEY.
 */
export function mediaVariantsMigration(_db: Db): Migration {
  return {
    async up(k) {
      await sql`insert into jobs (type, payload, run_at, attempts, max_attempts, key, created_at)
        select 'media.variants.backfill', '{}', 0, 0, 10, 'media-variants-backfill', 0
        where exists (select 1 from listings where image_key is not null)`.execute(k);
    },
    async down(k) {
      await k.deleteFrom('jobs').where('key', '=', 'media-variants-backfill').execute();
    },
  };
}
