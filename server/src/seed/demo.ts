/**
 * `npm run seed:demo`: fills the configured database (same configuration as the server: DATA_DIR,
 * DATABASE_URL, ...) with demo students and ~60 listings across every category, with photos.
 * Idempotent: does nothing when the demo students already exist.
 */
import path from 'node:path';
import { dollarsAsCents } from '@campus/contract';
import { loadConfig } from '../config.js';
import { findUserByEmail, hashPassword, insertVerifiedUser } from '../accounts/index.js';
import { openDb } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { queueVariantBackfill, storeJpeg } from '../media/index.js';
import { insertListing, toggleListingSold } from '../listings/index.js';
import { DEMO_LISTINGS, DEMO_PASSWORD, DEMO_STUDENTS } from './data.js';
import { demoPhoto } from './photos.js';

const config = loadConfig();
const db = openDb(config);
try {
  await migrateToLatest(db);
  const domain = config.campuses[0]?.emailDomains[0] ?? 'msu.edu';
  const emails = DEMO_STUDENTS.map((s) => `${s.local}@${domain}`);
  const existing = await findUserByEmail(db.kysely, emails[0] as string);
  if (existing) {
    console.log(`Demo data is already there (${emails[0]} exists). Nothing to do.`);
  } else {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const start = Date.now() - DEMO_LISTINGS.length * 45 * 60_000;
    const ids: number[] = [];
    for (const [i, s] of DEMO_STUDENTS.entries()) {
      const id = await insertVerifiedUser(db.kysely, {
        email: emails[i] as string,
        firstName: s.firstName,
        lastName: s.lastName,
        passwordHash,
        now: start,
      });
      ids.push(id);
    }
    for (const [i, l] of DEMO_LISTINGS.entries()) {
      const photo = await storeJpeg({ config }, await demoPhoto(l.name, l.category, i + 1));
      const at = start + i * 45 * 60_000;
      const row = await insertListing(db.kysely, {
        sellerId: ids[i % ids.length] as number,
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
    // The photos' responsive variants are made by the server's job worker once it runs.
    await queueVariantBackfill(db.kysely, Date.now());
    console.log(
      `Seeded ${DEMO_STUDENTS.length} demo students and ${DEMO_LISTINGS.length} listings into ${db.dialect === 'sqlite' ? path.join(config.dataDir, 'market.db') : 'PostgreSQL'}.`,
    );
    console.log(
      `Log in as ${emails[0]} (or any of: ${emails.slice(1).join(', ')}) with the password "${DEMO_PASSWORD}".`,
    );
  }
} finally {
  await db.close();
}
