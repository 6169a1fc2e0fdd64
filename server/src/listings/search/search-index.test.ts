import { CATEGORIES, FUZZY_SEARCH, type Category } from '@campus/contract';
import Fuse from 'fuse.js';
import { describe, expect, it } from 'vitest';
import { SearchIndex, type SearchDoc, type SearchFilters, type SearchHit } from './search-index.js';
import { seededRandom } from '../../../test/random.js';

const WORDS = [
  'calculator',
  'graphing',
  'textbook',
  'chemistry',
  'mini',
  'fridge',
  'lamp',
  'desk',
  'chair',
  'jacket',
  'winter',
  'tickets',
  'football',
  'guitar',
  'lessons',
  'tutoring',
  'math',
  'bike',
  'road',
  'hoodie',
  'sony',
  'headphones',
  'used',
  'new',
  'great',
  'condition',
  'pickup',
  'campus',
  'dorm',
  'the',
  'for',
  'with',
  'a',
];

function corpus(n: number, seed: number): SearchDoc[] {
  const rand = seededRandom(seed);
  const words = (k: number) =>
    Array.from({ length: k }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: words(1 + Math.floor(rand() * 3)),
    description: words(3 + Math.floor(rand() * 20)),
    category: CATEGORIES[Math.floor(rand() * CATEGORIES.length)] as Category,
    priceCents: Math.floor(rand() * 20_000),
    isSold: rand() < 0.1,
  }));
}

/** What the spec's client-side search would show: Fuse.js over unsold, filtered docs, newest first. */
function fuseReference(docs: SearchDoc[], query: string, filters: SearchFilters): SearchHit[] {
  const list = docs
    .filter((d) => !d.isSold)
    .filter((d) => !filters.categories?.length || filters.categories.includes(d.category as Category))
    .filter((d) => (filters.minCents ?? 0) <= d.priceCents && d.priceCents <= (filters.maxCents ?? Infinity))
    .sort((a, b) => b.id - a.id);
  const fuse = new Fuse(list, {
    keys: FUZZY_SEARCH.keys.map((k) => ({ name: k.name, weight: k.weight })),
    threshold: FUZZY_SEARCH.threshold,
    ignoreLocation: FUZZY_SEARCH.ignoreLocation,
    includeScore: true,
  });
  return fuse.search(query).map((r) => ({ id: r.item.id, score: r.score ?? 1 }));
}

describe('SearchIndex', () => {
  const docs = corpus(3000, 5);
  const index = new SearchIndex();
  for (const d of docs) index.upsert(d);

  const queries = [
    'calculater',
    'mini frige',
    'lamp',
    'desk chiar',
    'tutring math',
    'a',
    'the',
    'sony',
    'hoodie',
    'xyz',
    'graphing calculator for chemistry',
    // Category words: thousands of equal scores, where ties decide (newest first).
    'books',
    'electronics',
    'other',
  ];
  const filterSets: SearchFilters[] = [
    {},
    { categories: ['BOOKS', 'EVENTS'] },
    { minCents: 1500, maxCents: 5000 },
    { categories: ['OTHER'], minCents: 10_000 },
  ];

  it('returns exactly the Fuse.js top results, with and without filters', () => {
    for (const q of queries) {
      for (const f of filterSets) {
        const expected = fuseReference(docs, q, f).slice(0, 25);
        expect(index.search(q, f, 25), `${q} ${JSON.stringify(f)}`).toEqual(expected);
      }
    }
  });

  it('ranks the same whatever order the listings were indexed in', () => {
    const rand = seededRandom(11);
    const shuffled = [...docs];
    for (let i = shuffled.length - 1; i > 0; i -= 1) {
      const j = Math.floor(rand() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j] as SearchDoc, shuffled[i] as SearchDoc];
    }
    const other = new SearchIndex();
    for (const d of shuffled) other.upsert(d);
    for (const q of ['books', 'electronics', 'lamp', 'calculater', 'the']) {
      for (const f of filterSets) {
        const expected = fuseReference(docs, q, f).slice(0, 25);
        expect(other.search(q, f, 25), `${q} ${JSON.stringify(f)}`).toEqual(expected);
      }
    }
  });

  it('pages through the whole Fuse.js ranking with (score, id) cursors', () => {
    for (const q of ['lamp', 'calculater', 'the', 'books']) {
      const expected = fuseReference(docs, q, {});
      const seen: SearchHit[] = [];
      let after: SearchHit | undefined;
      for (let page = 0; page < 500; page += 1) {
        const hits = index.search(q, {}, 37, after);
        seen.push(...hits);
        if (hits.length < 37) break;
        after = hits[hits.length - 1];
      }
      expect(seen, q).toEqual(expected);
    }
  });

  it('follows sold, unsold and removed listings', () => {
    const small = new SearchIndex();
    small.upsert({
      id: 1,
      name: 'Desk lamp',
      description: 'Bright',
      category: 'LIFESTYLE',
      priceCents: 1000,
      isSold: false,
    });
    small.upsert({
      id: 2,
      name: 'Floor lamp',
      description: 'Tall',
      category: 'LIFESTYLE',
      priceCents: 2000,
      isSold: false,
    });
    expect(small.search('lamp', {}, 10).map((h) => h.id)).toEqual([2, 1]);
    small.setSold(2, true);
    expect(small.search('lamp', {}, 10).map((h) => h.id)).toEqual([1]);
    small.upsert({
      id: 2,
      name: 'Floor lamp',
      description: 'Tall',
      category: 'LIFESTYLE',
      priceCents: 2000,
      isSold: false,
    });
    small.remove(1);
    expect(small.search('lamp', {}, 10).map((h) => h.id)).toEqual([2]);
    expect(small.has(1)).toBe(false);
  });
});
