/**
 * `npm run seed:demo`: fills the configured database (same configuration as the server: DATA_DIR,
 * DATABASE_URL, CAMPUSES...) with demo students and ~60 listings across every category, with
 * photos, shared out between the campuses, so each campus shows a marketplace of its own
 * (features.md §E). Without CAMPUSES it adds a second, demo campus (seed/campuses.ts).
 * Idempotent: a campus whose demo students exist is left alone.
 */
import path from 'node:path';
import { openDb } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { demoCampuses } from './campuses.js';
import { DEMO_PASSWORD } from './data.js';
import { seedDemo } from './seed.js';

const { config, file, written } = demoCampuses();
const db = openDb(config);
try {
  await migrateToLatest(db);
  const seeded = await seedDemo(config, db);
  for (const s of seeded) {
    console.log(
      s.existed
        ? `${s.campus.name}: demo data is already there (${s.emails[0]} exists).`
        : `${s.campus.name}: ${s.emails.length} demo students and ${s.listings} listings. Log in as ${s.emails.join(', ')}.`,
    );
  }
  const where = db.dialect === 'sqlite' ? path.join(config.dataDir, 'market.db') : 'PostgreSQL';
  console.log(
    `\nDone: ${seeded.length} campuses in ${where}. The password of every demo student is "${DEMO_PASSWORD}".`,
  );
  if (file) {
    const fromHere = path.relative(process.cwd(), file);
    const shown = fromHere.startsWith('..') ? file : `./${fromHere}`;
    console.log(
      `${written ? 'Wrote' : 'Using'} ${shown}: the campuses above (yours first, still the default, plus a demo campus).`,
    );
    console.log(`Start the server with them:\n\n  CAMPUSES=${shown} npm start\n`);
    console.log(
      `(Plain \`npm start\` serves only ${seeded[0]?.campus.name}; the demo campus is closed until CAMPUSES names the file.)`,
    );
  }
} finally {
  await db.close();
}
