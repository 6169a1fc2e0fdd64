/**
 * The scale benchmark's data (scale.bench.ts): many campuses of skewed sizes and millions of listings,
 * loaded by PostgreSQL itself (generate_series over the corpus's word lists, lib/corpus.ts), so two
 * million rows take minutes, not the hour row-by-row inserts would. The search indexes are dropped
 * for the load and built once after it, as an operator restoring a dump would.
 */
import { CATEGORIES, CONDITIONS, conditionApplies } from '@campus/contract';
import pg from 'pg';
import type { Campus } from '../../server/src/campuses/index.js';
import { acrossCampuses } from '../../server/src/db/campus-scope.js';
import { openDb } from '../../server/src/db/connection.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { benchCampuses, installCampuses } from '../lib/campuses.js';
import { ADJECTIVES, BRANDS, DETAILS, ITEMS, OPENERS, PRICE_RANGES } from '../lib/corpus.js';
import { BENCH_COURSES } from './listings-queries.js';

const DAY = 86_400_000;

/**
 * Campus sizes: the largest `largest`, the rest falling off as a power law (a few big universities,
 * a long tail of small colleges) to `total` in all, each at least `min`. The exponent is found by
 * bisection; the last campus takes the rounding.
 */
export function campusSizes(count: number, total: number, largest: number, min = 20): number[] {
  if (count === 1) return [total];
  const sizesFor = (s: number) =>
    Array.from({ length: count }, (_, i) =>
      i === 0 ? largest : Math.max(min, Math.round(largest * (3 / (i + 3)) ** s)),
    );
  let lo = 0.01;
  let hi = 8;
  for (let step = 0; step < 60; step++) {
    const mid = (lo + hi) / 2;
    const sum = sizesFor(mid).reduce((a, b) => a + b, 0);
    if (sum > total) lo = mid;
    else hi = mid;
  }
  const sizes = sizesFor(hi);
  const rest = total - sizes.reduce((a, b) => a + b, 0);
  sizes[sizes.length - 1] = Math.max(min, sizes[sizes.length - 1]! + rest);
  return sizes;
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const arr = (xs: readonly string[]) => `array[${xs.map(lit).join(',')}]`;
/** One element of a literal array, drawn uniformly. */
const pick = (xs: readonly string[], r = 'random()') => `(${arr(xs)})[1 + floor(${r} * ${xs.length})::int]`;

export interface ScaleData {
  /** The CAMPUSES file the processes start with. */
  campusesFile: string;
  campuses: Array<Campus & { size: number }>;
  /** Sellers of a campus, for tokens: ids and addresses in id order. */
  sellers(campusId: number, count: number): Promise<Array<{ id: number; email: string }>>;
  /** Chat pairs (buyer, seller, the seller's listing), each pair within one campus. */
  chatPairs: Array<{
    buyer: { id: number; email: string };
    seller: { id: number; email: string };
    listingId: number;
  }>;
  seconds: number;
}

/**
 * Loads `total` listings over `campusCount` campuses into the migrated database at `ownerUrl`
 * (the app's role), writing rows as `adminUrl`'s superuser: a bulk load, not the app's work, so
 * row-level security is not in its way. `chatPairs` buyer/seller pairs get one listing each.
 */
export async function loadScaleData(options: {
  ownerUrl: string;
  adminUrl: string;
  dataDir: string;
  campusCount: number;
  total: number;
  largest: number;
  chatPairs: number;
  log: (line: string) => void;
}): Promise<ScaleData> {
  const started = performance.now();
  const db = openDb({ dataDir: options.dataDir, databaseUrl: options.ownerUrl });
  await migrateToLatest(db);
  const list = benchCampuses(options.campusCount, {
    slug: 'large',
    name: 'Large State',
    emailDomains: ['large.edu'],
    timeZone: 'America/Detroit',
    default: true,
  });
  const { file, campuses } = await acrossCampuses(() => installCampuses(db, options.dataDir, list));
  await db.close();
  const sizes = campusSizes(options.campusCount, options.total, options.largest);
  const pairs: ScaleData['chatPairs'] = [];
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  try {
    await admin.query(
      `set maintenance_work_mem = '1GB'; set synchronous_commit = off; set work_mem = '256MB'; set enable_memoize = off`,
    );
    await admin.query('select setseed(0.42)');
    // Sellers: one per 40 listings of a campus (3 to 2,500).
    await admin.query(
      'create temp table plan (campus_id int, domain text, size int, sellers int, first_seller int)',
    );
    await admin.query(
      `insert into plan (campus_id, domain, size, sellers) select * from unnest($1::int[], $2::text[], $3::int[], $4::int[])`,
      [
        campuses.map((c) => c.id),
        campuses.map((c) => c.emailDomains[0]!),
        sizes,
        sizes.map((n) => Math.min(2500, Math.max(3, Math.ceil(n / 40)))),
      ],
    );
    const now = Date.now();
    await admin.query(
      `insert into users (campus_id, email, first_name, last_name, password_hash, verified, verified_at, token_version, created_at)
       select p.campus_id, 'seller' || g || '@' || p.domain, 'Seller' || g, 'Bench', 'not-a-login', 1, $1, 0, $1
       from plan p, generate_series(0, p.sellers - 1) g order by p.campus_id, g`,
      [now],
    );
    await admin.query(
      `update plan set first_seller = u.first from (select campus_id, min(id) as first from users group by campus_id) u where u.campus_id = plan.campus_id`,
    );
    options.log(`${sizes.length} campuses (largest ${sizes[0]}, smallest ${sizes.at(-1)}), sellers inserted`);

    // Indexes of listings other than its primary key: dropped for the load, built after it.
    const indexes = await admin.query<{ name: string; def: string }>(
      `select i.indexname as name, i.indexdef as def from pg_indexes i
       where i.tablename = 'listings' and i.schemaname = current_schema()
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    );
    for (const ix of indexes.rows) await admin.query(`drop index ${ix.name}`);

    const category = `(${arr(CATEGORIES)})[1 + d.cat]`;
    const itemCase = `case d.cat ${CATEGORIES.map((c, i) => `when ${i} then ${pick(ITEMS[c], 'd.r_item')}`).join(' ')} end`;
    const priceCase = `case d.cat ${CATEGORIES.map((c, i) => `when ${i} then ${PRICE_RANGES[c][0]} + floor(d.r_price * ${PRICE_RANGES[c][1] - PRICE_RANGES[c][0]})::int`).join(' ')} end`;
    const goods = CATEGORIES.map((c, i) => (conditionApplies(c) ? i : -1)).filter((i) => i >= 0);
    const books = CATEGORIES.indexOf('BOOKS');
    const services = CATEGORIES.indexOf('SERVICES');
    // Posted over the last 25 days (each campus evenly), listed for 30 days from then; ~10 % sold.
    // Ordered by time across campuses, as listings arrive.
    await admin.query(
      `insert into listings (campus_id, seller_id, name, description, category, price_cents, image_key, thumb_key,
         is_sold, status, condition, course_code, created_at, updated_at, expires_at)
       select campus_id, seller_id, name, description, category, price_cents, null, null,
         sold, case when sold = 1 then 'SOLD' else 'AVAILABLE' end, condition, course_code, at, at, at + ${30 * DAY}
       from (
         select d.campus_id,
           d.first_seller + (d.g % d.sellers) as seller_id,
           concat_ws(' ', case when random() < 0.6 then ${pick(ADJECTIVES)} end,
             case when d.cat <> ${services} and random() < 0.4 then ${pick(BRANDS)} end, ${itemCase}) as name,
           concat_ws(' ', ${pick(OPENERS)} || ' ' || lower(${itemCase}) || '.', ${pick(DETAILS)},
             case when random() < 0.75 then ${pick(DETAILS)} end,
             case when random() < 0.5 then ${pick(DETAILS)} end,
             case when random() < 0.25 then ${pick(DETAILS)} end) as description,
           ${category} as category,
           (${priceCase}) * 100 + case when random() < 0.3 then 99 when random() < 0.5 then 50 else 0 end as price_cents,
           case when random() < 0.1 then 1 else 0 end as sold,
           case when d.cat in (${goods.join(',')}) and random() < 0.8 then ${pick(CONDITIONS)} end as condition,
           case when d.cat = ${books} and random() < 0.7 then ${pick(BENCH_COURSES)} end as course_code,
           ($1::bigint - ${25 * DAY} + floor((d.g + 0.5) * ${25 * DAY}::float8 / d.size))::bigint as at
         -- One draw per row of the category, the item and the price: a subquery whose select list
         -- calls random() is evaluated row by row (never flattened), so name and description agree.
         from (
           select p.campus_id, p.first_seller, p.sellers, p.size, g,
             floor(random() * ${CATEGORIES.length})::int as cat, random() as r_item, random() as r_price
           from plan p cross join lateral generate_series(0, p.size - 1) g
         ) d
       ) rows order by at`,
      [now - DAY],
    );
    options.log(
      `${options.total} listings inserted after ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    for (const ix of indexes.rows) await admin.query(ix.def);
    options.log(
      `${indexes.rows.length} listing indexes built after ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    // Chat pairs, round the 50 largest campuses: a buyer and a seller with one listing each.
    const pairCampuses = campuses.slice(0, 50);
    const users = await admin.query<{ id: number; email: string; campus_id: number }>(
      `insert into users (campus_id, email, first_name, last_name, password_hash, verified, verified_at, token_version, created_at)
       select c, 'chat' || g || '@' || d, 'Chat' || g, 'Bench', 'not-a-login', 1, $3, 0, $3
       from unnest($1::int[], $2::text[]) with ordinality as x(c, d, n),
            generate_series(0, $4::int - 1) g
       where (g / 2) % ${pairCampuses.length} = x.n - 1
       order by g returning id, email, campus_id`,
      [
        pairCampuses.map((c) => c.id),
        pairCampuses.map((c) => c.emailDomains[0]!),
        now,
        options.chatPairs * 2,
      ],
    );
    // Users of one campus, in id order, pair up: buyer, seller, buyer, seller…
    const byCampus = new Map<number, Array<{ id: number; email: string }>>();
    for (const u of users.rows) {
      const l = byCampus.get(u.campus_id) ?? [];
      l.push({ id: u.id, email: u.email });
      byCampus.set(u.campus_id, l);
    }
    for (const [campusId, l] of byCampus) {
      for (let i = 0; i + 1 < l.length; i += 2) {
        const seller = l[i + 1]!;
        const listing = await admin.query<{ id: number }>(
          `insert into listings (campus_id, seller_id, name, description, category, price_cents, is_sold, status, created_at, updated_at, expires_at)
           values ($1, $2, 'Chat bench desk lamp', 'For the chat benchmark.', 'LIFESTYLE', 1500, 0, 'AVAILABLE', $3, $3, $4) returning id`,
          [campusId, seller.id, now - DAY, now + 29 * DAY],
        );
        pairs.push({ buyer: l[i]!, seller, listingId: listing.rows[0]!.id });
      }
    }
    await admin.query('analyze');
  } finally {
    await admin.end();
  }
  const seconds = (performance.now() - started) / 1000;
  options.log(`loaded in ${seconds.toFixed(0)} s`);
  return {
    campusesFile: file,
    campuses: campuses.map((c, i) => ({ ...c, size: sizes[i]! })),
    async sellers(campusId, count) {
      const c = new pg.Client({ connectionString: options.adminUrl });
      await c.connect();
      try {
        const r = await c.query<{ id: number; email: string }>(
          `select id, email from users where campus_id = $1 and email like 'seller%' order by id limit $2`,
          [campusId, count],
        );
        return r.rows;
      } finally {
        await c.end();
      }
    },
    chatPairs: pairs,
    seconds,
  };
}
