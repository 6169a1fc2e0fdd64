/**
 * `npm run seed:demo`: fills the configured database (same configuration as the server: DATA_DIR,
 * DATABASE_URL, CAMPUSES...) with demo students and ~60 listings across every category, with
 * photos, shared out between the campuses, so each campus shows a marketplace of its own
 * (features.md §E). Without CAMPUSES it adds a second, demo campus (seed/campuses.ts).
 * Idempotent: a campus whose demo students exist is left alone.
 */
import path from 'node:path';
import { dollarsAsCents } from '@campus/contract';
import { findUserByEmail, hashPassword, insertVerifiedUser } from '../accounts/index.js';
import { inCampus, loadCampuses, type Campus } from '../campuses/index.js';
import type { Config } from '../config.js';
import { openDb, type Db } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertListing, toggleListingSold } from '../listings/index.js';
import { queueVariantBackfill, storeJpeg } from '../media/index.js';
import { demoCampuses } from './campuses.js';
import { DEMO_LISTINGS, DEMO_PASSWORD, DEMO_STUDENTS } from './data.js';
import { demoPhoto } from './photos.js';

/** Every `n`th item from `i` (a campus's share of the demo data); at least one. */
function share<T>(items: readonly T[], i: number, n: number): T[] {
  const mine = items.filter((_, k) => k % n === i % n);
  return mine.length > 0 ? mine : [items[i % items.length] as T];
}

/** One campus's demo students and listings, written as work of that campus. Returns the first login. */
async function seedCampus(
  config: Config,
  db: Db,
  campus: Campus,
  i: number,
  n: number,
): Promise<string | null> {
  const domain = campus.emailDomains[0] as string;
  const students = share(DEMO_STUDENTS, i, n).map((s) => ({ ...s, email: `${s.local}@${domain}` }));
  const listings = share(
    DEMO_LISTINGS.map((l, index) => ({ ...l, index })),
    i,
    n,
  );
  const first = students[0]?.email as string;
  if (await findUserByEmail(db.kysely, first)) {
    console.log(`${campus.name}: demo data is already there (${first} exists).`);
    return first;
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const start = Date.now() - listings.length * 45 * 60_000;
  const ids: number[] = [];
  for (const s of students) {
    const { email, firstName, lastName } = s;
    ids.push(await insertVerifiedUser(db.kysely, { email, firstName, lastName, passwordHash, now: start }));
  }
  for (const [k, l] of listings.entries()) {
    const photo = await storeJpeg({ config }, await demoPhoto(l.name, l.category, l.index + 1));
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
    });
    if (l.sold) await toggleListingSold(db.kysely, row.id, row.seller_id, at);
  }
  console.log(
    `${campus.name}: ${students.length} demo students and ${listings.length} listings. Log in as ${students.map((s) => s.email).join(', ')}.`,
  );
  return first;
}

const { config, file, written } = demoCampuses();
const db = openDb(config);
try {
  await migrateToLatest(db);
  // The campuses as the server will have them (upserted by slug, like its start-up does).
  const campuses = await loadCampuses(db, config.campuses, Date.now());
  const open = config.campuses
    .map((c) => campuses.bySlug(c.slug))
    .filter((c): c is Campus => c !== undefined && !c.closed);
  for (const [i, campus] of open.entries()) {
    await inCampus(campus.id, () => seedCampus(config, db, campus, i, open.length));
  }
  // The photos' responsive variants are made by the server's job worker once it runs (one job
  // walks every stored photo; a job belongs to a campus like every row).
  await inCampus(campuses.default.id, () => queueVariantBackfill(db.kysely, Date.now()));
  const where = db.dialect === 'sqlite' ? path.join(config.dataDir, 'market.db') : 'PostgreSQL';
  console.log(
    `\nDone: ${open.length} campuses in ${where}. The password of every demo student is "${DEMO_PASSWORD}".`,
  );
  if (file) {
    const fromHere = path.relative(process.cwd(), file);
    const relative = fromHere.startsWith('..') ? file : `./${fromHere}`;
    console.log(
      `${written ? 'Wrote' : 'Using'} ${relative}: the campuses above (yours first, still the default, plus a demo campus).`,
    );
    console.log(`Start the server with them:\n\n  CAMPUSES=${relative} npm start\n`);
    console.log(
      `(Plain \`npm start\` serves only ${open[0]?.name}; the demo campus is closed until CAMPUSES names the file.)`,
    );
  }
} finally {
  await db.close();
}
