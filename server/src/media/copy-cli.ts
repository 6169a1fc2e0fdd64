/**
 * `npm run photos:to-bucket`: copies DATA_DIR/uploads into the bucket of S3_BUCKET (same
 * configuration as the server), each file under its campus's prefix, before a deployment that
 * kept photos on disk starts with S3_BUCKET. Run it with the server stopped (or run it again after
 * the switch for what was uploaded meanwhile); it can be repeated.
 */
import { loadCampuses } from '../campuses/index.js';
import { loadConfig } from '../config.js';
import { openDb } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { BucketStorage } from './bucket-storage.js';
import { copyUploadsToBucket } from './copy-to-bucket.js';

const config = loadConfig();
if (!config.bucket) {
  console.error('S3_BUCKET is not set: there is no bucket to copy the photos into.');
  process.exit(1);
}
const db = openDb(config);
try {
  await migrateToLatest(db);
  const campuses = await loadCampuses(db, config.campuses, Date.now());
  const bucket = await new BucketStorage(config.bucket, (id) => campuses.byId(id).slug).init();
  try {
    const report = await copyUploadsToBucket(db.kysely, config.dataDir, bucket, (done, total) => {
      if (done % 500 === 0 || done === total) console.log(`${done} of ${total} photos`);
    });
    console.log(`Copied ${report.copied} files into ${config.bucket.bucket}.`);
    if (report.missing.length > 0)
      console.log(
        `${report.missing.length} names in the database have no file in ${config.dataDir}/uploads (broken already), e.g. ${report.missing[0]}.`,
      );
  } finally {
    bucket.close();
  }
} finally {
  await db.close();
}
