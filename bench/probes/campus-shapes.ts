/**
 * Where a small campus's request time goes (campuses.bench.ts follow-up): one large campus among
 * many small ones, then plain searches, filtered searches and filter counts timed apart, for the
 * large campus and for the small ones. Run: `npx tsx bench/probes/campus-shapes.ts`
 * (PROBE_LARGE 20000, PROBE_SMALL 300 campuses of PROBE_SMALL_LISTINGS 100).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { acrossCampuses } from '../../server/src/db/campus-scope.js';
import { openDb } from '../../server/src/db/connection.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { seededRandom } from '../../server/test/random.js';
import { startAppServer } from '../lib/app-server.js';
import { benchCampuses, installCampuses } from '../lib/campuses.js';
import { BENCH_QUERIES } from '../lib/corpus.js';
import { agent, filterParams, get } from '../targets/listings-queries.js';
import { percentiles } from '../targets/listings-report.js';
import { seed } from '../targets/listings-seed.js';

const LARGE = Number(process.env.PROBE_LARGE ?? 20_000);
const SMALL = Number(process.env.PROBE_SMALL ?? 300);
const SMALL_LISTINGS = Number(process.env.PROBE_SMALL_LISTINGS ?? 100);
const secret = randomBytes(32).toString('hex');
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-probe-shapes-'));
const db = openDb({ dataDir });
await migrateToLatest(db);
const list = benchCampuses(SMALL + 1, {
  slug: 'large',
  name: 'Large',
  emailDomains: ['large.edu'],
  timeZone: 'America/Detroit',
  default: true,
});
const { file, campuses } = await acrossCampuses(() => installCampuses(db, dataDir, list));
const large = await acrossCampuses(() =>
  seed(db, LARGE, secret, { id: campuses[0]!.id, domain: 'large.edu' }),
);
const small: string[] = [];
for (const c of campuses.slice(1)) {
  const s = await acrossCampuses(() =>
    seed(db, SMALL_LISTINGS, secret, { id: c.id, domain: c.emailDomains[0]!, sellers: 5 }),
  );
  small.push(s.tokens[0]!);
}
await db.close();
const server = await startAppServer({
  jwtSecret: secret,
  env: { DATA_DIR: dataDir, CAMPUSES: file, WEB_DIST: '/nonexistent' },
});
try {
  const rand = seededRandom(5);
  const shapes: Record<string, () => string> = {
    search: () =>
      `/listings/search?query=${encodeURIComponent(BENCH_QUERIES[Math.floor(rand() * BENCH_QUERIES.length)]!)}`,
    'search+filters': () =>
      `/listings/search?query=${encodeURIComponent(BENCH_QUERIES[Math.floor(rand() * BENCH_QUERIES.length)]!)}&${filterParams(rand)}`,
    filters: () => `/listings/filters?${filterParams(rand)}`,
    recent: () => '/listings/recent',
  };
  for (const [who, tokens] of [
    ['large', large.tokens],
    ['small', small],
  ] as const) {
    for (const [shape, url] of Object.entries(shapes)) {
      const samples: number[] = [];
      for (let round = 0; round < 2; round++) {
        samples.length = 0;
        for (let i = 0; i < 300; i++) {
          const res = await get(server.port, url(), tokens[i % tokens.length]!);
          if (res.status !== 200) throw new Error(`${res.status} ${res.body.toString().slice(0, 200)}`);
          samples.push(res.ms);
        }
      }
      const p = percentiles(samples);
      console.log(
        `${who} ${shape}: p50 ${p.p50.toFixed(2)} p95 ${p.p95.toFixed(2)} p99 ${p.p99.toFixed(2)} ms`,
      );
    }
  }
} finally {
  agent.destroy();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
