import type { Config } from '../config.js';
import { BUCKET_TIMEOUTS, BucketStorage, type BucketTimeouts } from './bucket-storage.js';
import { DiskStorage } from './disk-storage.js';
import type { PhotoStorage } from './photo-storage.js';

/**
 * The storage of this deployment (app.ts): the bucket when S3_BUCKET is set, else DATA_DIR/uploads.
 * A bucket is not contacted here: a bucket that is down at start-up fails the uploads (503), not
 * the start (browsing, chat and search go on).
 */
export async function createPhotoStorage(
  config: Pick<Config, 'bucket' | 'dataDir'>,
  /** The deployment's campuses (ctx.campuses): a bucket keeps each one's images under its slug. */
  campuses: { byId(id: number): { slug: string } },
  clock: () => number,
  /** Tests shorten them to see a hung bucket answered without waiting seconds. */
  timeouts: Partial<BucketTimeouts> = {},
): Promise<PhotoStorage> {
  if (!config.bucket) return new DiskStorage(config.dataDir);
  return new BucketStorage(config.bucket, (id) => campuses.byId(id).slug, clock, {
    ...BUCKET_TIMEOUTS,
    ...timeouts,
  }).init();
}
