/**
 * What the listings benchmark asks the server (listings.bench.ts): the HTTP client, the random
 * filter and section B request shapes, and the top-10 agreement with Fuse.js.
 */
import http from 'node:http';
import {
  CATEGORIES,
  CONDITIONS,
  FUZZY_SEARCH,
  PRICE_BUCKETS,
  bucketsToRange,
  type Category,
} from '@campus/contract';
import Fuse from 'fuse.js';
import type { SyntheticListing } from '../lib/corpus.js';

/** Unsold listings with their ids, in id order (what the search covers). */
export type Unsold = Array<SyntheticListing & { id: number }>;

/** Course codes the synthetic books carry (about 1 in 40 books per code at 100k listings). */
export const BENCH_COURSES = Array.from({ length: 40 }, (_, i) =>
  ['CSE', 'MTH', 'PHY', 'CEM', 'ECON', 'PSY', 'BS', 'STT'][i % 8]!.concat(String(101 + i * 7)),
);

export const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function get(
  port: number,
  url: string,
  token: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      { host: '127.0.0.1', port, path: url, agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export function filterParams(rand: () => number): string {
  const p = new URLSearchParams();
  const nCats = Math.floor(rand() * 3);
  for (let i = 0; i < nCats; i += 1)
    p.append('categories', CATEGORIES[Math.floor(rand() * CATEGORIES.length)] as Category);
  const buckets = PRICE_BUCKETS.filter(() => rand() < 0.35).map((b) => b.id);
  const range = bucketsToRange(buckets);
  if (range.priceMin !== undefined) p.set('priceMin', String(range.priceMin));
  if (range.priceMax !== undefined) p.set('priceMax', String(range.priceMax));
  if (p.toString() === '') p.append('categories', 'BOOKS');
  return p.toString();
}

/**
 * Section B request shapes: a search with one or two conditions, a search within a course, and
 * browse by course + condition, each sorted by price (ascending or descending).
 */
export function sellingParams(rand: () => number, shape: number): string {
  const p = new URLSearchParams();
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
  if (shape !== 1) {
    p.append('conditions', pick(CONDITIONS));
    if (rand() < 0.5) p.append('conditions', pick(CONDITIONS));
  }
  if (shape !== 0) p.set('courseCode', pick(BENCH_COURSES));
  p.set('sort', rand() < 0.5 ? 'price_asc' : 'price_desc');
  return p.toString();
}

/** Fuse.js over the same unsold listings with the spec's options; scores do not depend on the rest. */
export function fuseOver(docs: Unsold): Fuse<Unsold[number]> {
  return new Fuse(docs, {
    keys: FUZZY_SEARCH.keys.map((key) => ({ name: key.name, weight: key.weight })),
    threshold: FUZZY_SEARCH.threshold,
    ignoreLocation: FUZZY_SEARCH.ignoreLocation,
  });
}

/**
 * Top-10 agreement: for each URL, the share of Fuse.js's ten best (after the URL's category and
 * price filters) that the app's first page of ten also holds. Ties at the tenth place can differ
 * (Fuse.js keeps insertion order among equal scores, the app puts the newest first).
 */
export async function agreement(
  port: number,
  token: string,
  fuse: ReturnType<typeof fuseOver>,
  urls: string[],
) {
  let share = 0;
  let exact = 0;
  let scoreShare = 0;
  for (const url of urls) {
    const u = new URL(url, 'http://x');
    const cats = u.searchParams.getAll('categories');
    const min = u.searchParams.has('priceMin') ? Number(u.searchParams.get('priceMin')) * 100 : -Infinity;
    const max = u.searchParams.has('priceMax') ? Number(u.searchParams.get('priceMax')) * 100 : Infinity;
    const query = (u.searchParams.get('query') ?? '').trim().replace(/\s+/g, ' ');
    const matches = fuse
      .search(query)
      .filter(
        (r) =>
          (cats.length === 0 || cats.includes(r.item.category)) &&
          r.item.priceCents >= min &&
          r.item.priceCents <= max,
      );
    const scoreOf = new Map(matches.map((r) => [r.item.id, r.score ?? 0]));
    const top = matches.slice(0, 10);
    const theirs = top.map((r) => r.item.id);
    u.searchParams.set('limit', '10');
    const res = await get(port, `${u.pathname}?${u.searchParams}`, token);
    const body = JSON.parse(res.body.toString()) as
      { listings?: Array<{ id: number }> } | Array<{ id: number }>;
    const ourList = (Array.isArray(body) ? body : (body.listings ?? [])).map((l) => l.id);
    const ours = new Set(ourList);
    const common = theirs.filter((id) => ours.has(id)).length;
    // Tie-aware: rank by rank, the app's listing has the Fuse.js score of Fuse.js's listing there.
    const sameScore = top.filter((r, rank) => {
      const mine = scoreOf.get(ourList[rank] ?? -1);
      return mine !== undefined && Math.abs(mine - (r.score ?? 0)) < 1e-9;
    }).length;
    scoreShare += top.length === 0 ? (ourList.length === 0 ? 1 : 0) : sameScore / top.length;
    share += theirs.length === 0 ? (ours.size === 0 ? 1 : 0) : common / theirs.length;
    if (common === theirs.length && ours.size === theirs.length) exact += 1;
  }
  return { share: share / urls.length, exact, scoreShare: scoreShare / urls.length };
}
