/** The listings benchmark's database: students, listings and bearer tokens, seeded directly. */
import { CONDITIONS, conditionApplies } from '@campus/contract';
import type { Db } from '../../server/src/db/connection.js';
import { TokenService } from '../../server/src/http/tokens.js';
import { seededRandom } from '../../server/test/random.js';
import { syntheticListings, type SyntheticListing } from '../lib/corpus.js';
import { BENCH_COURSES, type Unsold } from './listings-queries.js';

const SELLERS = 50;

export interface Seeded {
  tokens: string[];
  someId: number;
  unsold: Unsold;
}

/**
 * `listings` synthetic listings (lib/corpus.ts) from SELLERS students, ~10 % sold, most goods with a
 * condition and most books with a course code; tokens for the first four students.
 */
export async function seed(
  db: Db,
  listings: number,
  jwtSecret: string,
  /** The campus the rows belong to: campus 1 (which the default campus adopts at start-up) unless given. */
  campus: { id: number; domain: string; sellers?: number } = { id: 1, domain: 'msu.edu' },
): Promise<Seeded> {
  const k = db.kysely;
  const now = Date.now();
  const users = Array.from({ length: campus.sellers ?? SELLERS }, (_, i) => ({
    campus_id: campus.id,
    email: `bench${i}@${campus.domain}`,
    first_name: `Bench${i}`,
    last_name: 'Seller',
    password_hash: 'x',
    verified: 1,
    token_version: 0,
    created_at: now,
  }));
  const inserted = await k.insertInto('users').values(users).returning(['id', 'email']).execute();
  const docs = syntheticListings(listings);
  const rand = seededRandom(7);
  const batch = db.dialect === 'sqlite' ? 500 : 1000;
  await k.transaction().execute(async (trx) => {
    for (let i = 0; i < docs.length; i += batch) {
      const rows = docs.slice(i, i + batch).map((d, j) => {
        const n = i + j;
        // Spread over the past ~35 days, oldest first; ~10 % sold.
        const at = now - (docs.length - n) * 30_000;
        return {
          campus_id: campus.id,
          seller_id: inserted[n % inserted.length]?.id ?? 1,
          name: d.name,
          description: d.description,
          category: d.category,
          price_cents: d.priceCents,
          image_key: null,
          thumb_key: null,
          is_sold: rand() < 0.1 ? 1 : 0,
          // Section B: most goods carry a condition; books a course code (the search filters on both).
          condition:
            conditionApplies(d.category) && rand() < 0.8
              ? CONDITIONS[Math.floor(rand() * CONDITIONS.length)]!
              : null,
          course_code:
            d.category === 'BOOKS' && rand() < 0.7
              ? BENCH_COURSES[Math.floor(rand() * BENCH_COURSES.length)]!
              : null,
          created_at: at,
          updated_at: at,
        };
      });
      await trx.insertInto('listings').values(rows).execute();
    }
  });
  if (db.dialect === 'postgres') await (await import('kysely')).sql`analyze`.execute(k);
  const tokens = new TokenService(jwtSecret, Date.now);
  const rows = await k
    .selectFrom('listings')
    .select(['id', 'is_sold'])
    .where('campus_id', '=', campus.id)
    .orderBy('id', 'asc')
    .execute();
  const unsold = rows.flatMap((r, i) => (r.is_sold ? [] : [{ ...(docs[i] as SyntheticListing), id: r.id }]));
  const some = await k
    .selectFrom('listings')
    .select('id')
    .where('is_sold', '=', 0)
    .where('campus_id', '=', campus.id)
    .orderBy('id', 'desc')
    .limit(1)
    .offset(Math.min(50, Math.floor(listings / 4)))
    .executeTakeFirstOrThrow();
  return {
    tokens: await Promise.all(
      inserted.slice(0, 4).map((u) => tokens.issue({ userId: u.id, email: u.email, tokenVersion: 0 })),
    ),
    someId: some.id,
    unsold,
  };
}
