import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh PostgreSQL database beside `base` (same server and credentials), so parallel test files
 * and benchmark runs never see each other's rows; `drop` removes it. With `template`, the new
 * database is a copy of that one (CREATE DATABASE … TEMPLATE), e.g. an already migrated schema.
 */
export async function createPgDatabase(
  base: string,
  prefix = 'cm_test',
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      // Connections a closing app is still ending would get "terminating connection" from FORCE
      // and report it as an unhandled error: give them a moment to leave first.
      for (let i = 0; i < 40; i++) {
        const open = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
        if ((open.rows[0] as { n: number }).n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
