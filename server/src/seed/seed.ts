import { dollarsAsCents } from '@campus/contract';
import { findUserByEmail, hashPassword, insertVerifiedUser } from '../accounts/index.js';
import { inCampus, loadCampuses, type Campus } from '../campuses/index.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { insertListing, toggleListingSold } from '../listings/index.js';
import { createPhotoStorage, queueVariantBackfill, storeJpeg, type PhotoStorage } from '../media/index.js';
import { DEMO_LISTINGS, DEMO_PASSWORD, DEMO_STUDENTS } from './data.js';
import { demoPhoto } from './photos.js';

export interface SeededCampus {
  campus: Campus;
  /** The demo students' addresses (the first is the one to log in with). */
  emails: string[];
  listings: number;
  /** The campus had its demo students already: nothing was written. */
  existed: boolean;
}

/** Every `n`th item from `i` (a campus's share of the demo data); at least one. */
function share<T>(items: readonly T[], i: number, n: number): T[] {
  const mine = items.filter((_, k) => k % n === i % n);
  return mine.length > 0 ? mine : [items[i % items.length] as T];
}

/** One campus's share of the demo students and listings, written as work of that campus. */
async function seedCampus(
  config: Config,
  db: Db,
  photoStorage: PhotoStorage,
  campus: Campus,
  i: number,
  n: number,
): Promise<SeededCampus> {
  const domain = campus.emailDomains[0] as string;
  const students = share(DEMO_STUDENTS, i, n).map((s) => ({ ...s, email: `${s.local}@${domain}` }));
  const listings = share(
    DEMO_LISTINGS.map((l, index) => ({ ...l, index })),
    i,
    n,
  );
  const emails = students.map((s) => s.email);
  if (await findUserByEmail(db.kysely, emails[0] as string)) {
    return { campus, emails, listings: listings.length, existed: true };
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const start = Date.now() - listings.length * 45 * 60_000;
  const ids: number[] = [];
  for (const { email, firstName, lastName } of students) {
    ids.push(await insertVerifiedUser(db.kysely, { email, firstName, lastName, passwordHash, now: start }));
  }
  for (const [k, l] of listings.entries()) {
    const photo = await storeJpeg({ config, photoStorage }, await demoPhoto(l.name, l.category, l.index + 1));
    const at = start + k * 45 * 60_000;
    const row = await insertListing(db.kysely, {
      sellerId: ids[k % ids.length] as number,
      name: l.name,
      description: l.description,
      category: l.category,
      priceCents: dollarsAsCents(Number(l.price)),
      imageKey: photo.imageKey,
      thumbKey: photo.thumbKey,
      now: at,
      courseCode: l.courseCode ?? null,
      isbn: l.isbn ?? null,
    });
    if (l.sold) await toggleListingSold(db.kysely, row.id, row.seller_id, at);
  }
  return { campus, emails, listings: listings.length, existed: false };
}

/**
 * Fills every open campus of `config` with its share of the demo students and listings (so each
 * campus shows a marketplace of its own, features.md §E). The campuses are upserted first, as the
 * server's start-up does; each campus's rows are written inside its scope. Idempotent per campus.
 */
export async function seedDemo(config: Config, db: Db): Promise<SeededCampus[]> {
  const campuses = await loadCampuses(db, config.campuses, Date.now());
  // Where the server will look for the photos: DATA_DIR/uploads, or the bucket (S3_BUCKET).
  const photoStorage = await createPhotoStorage(config, campuses, Date.now);
  const open = config.campuses
    .map((c) => campuses.bySlug(c.slug))
    .filter((c): c is Campus => c !== undefined && !c.closed);
  const seeded: SeededCampus[] = [];
  for (const [i, campus] of open.entries()) {
    seeded.push(
      await inCampus(campus.id, () => seedCampus(config, db, photoStorage, campus, i, open.length)),
    );
  }
  // The photos' responsive variants are made by the server's job worker once it runs: one job
  // walks every stored photo, and a job belongs to a campus like every row.
  await inCampus(campuses.default.id, () => queueVariantBackfill(db.kysely, Date.now()));
  photoStorage.close();
  return seeded;
}
