import { loadConfig } from '../config.js';
import { openDb } from './connection.js';
import { migrateToLatest } from './migrate.js';

const config = loadConfig();
const db = openDb(config);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await db.close();
}
