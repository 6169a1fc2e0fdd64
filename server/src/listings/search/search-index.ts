import { CATEGORIES, FUZZY_SEARCH, type Category } from '@campus/contract';
import Fuse from 'fuse.js';
import {
  KEY_WEIGHTS,
  MAX_PATTERN,
  compilePattern,
  documentScore,
  keyFactor,
  keyScore,
  fieldNorm,
  keyFactorLowerBound,
  type Pattern,
  type ScoredFields,
} from './fuse-score.js';

/** What the index keeps of a listing. */
export interface SearchDoc {
  id: number;
  name: string;
  description: string;
  category: string;
  priceCents: number;
  isSold: boolean;
}

export interface SearchFilters {
  categories?: readonly Category[];
  minCents?: number;
  maxCents?: number;
}

/** Position in a ranked result list: results come after (score, id) in (score asc, id desc) order. */
export interface SearchAfter {
  score: number;
  id: number;
}

export interface SearchHit {
  id: number;
  score: number;
}

export interface SearchStats {
  candidates: number;
  scored: number;
  /** Milliseconds spent counting shared bigrams, bucketing candidates, scoring. */
  countMs?: number;
  bucketMs?: number;
  scoreMs?: number;
}

/** Candidate cap for patterns longer than 32 characters, which are scored by Fuse.js itself. */
const LONG_QUERY_CANDIDATES = 2000;

const CATEGORY_INDEX = new Map<string, number>(CATEGORIES.map((c, i) => [c, i]));

const BOUND_BUCKETS = 256;

/** Word counts above this share one norm in the bound tables (a smaller norm only loosens the bound). */
const MAX_TOKENS = 255;

/**
 * Per query: the lowest factor key `key` can contribute when it shares `shared` bigram positions
 * with the pattern (it then needs at least ceil((m - 1 - shared) / 2) edits) and has `tokens`
 * words. With 0 edits the key could equal the pattern exactly, which Fuse scores as EPSILON.
 */
function factorTable(p: Pattern): Float64Array {
  const m = p.length;
  const table = new Float64Array(3 * m * (MAX_TOKENS + 1));
  for (let key = 0; key < 3; key += 1) {
    for (let shared = 0; shared < m; shared += 1) {
      const minErrors = Math.max(0, Math.ceil((m - 1 - shared) / 2));
      for (let tokens = 1; tokens <= MAX_TOKENS; tokens += 1) {
        const norm = Math.round(1000 / Math.pow(tokens, 0.5)) / 1000;
        table[(key * m + shared) * (MAX_TOKENS + 1) + tokens] =
          minErrors === 0
            ? Math.pow(Number.EPSILON, (KEY_WEIGHTS[key] as number) * norm)
            : keyFactorLowerBound(p, minErrors, key, norm);
      }
    }
  }
  return table;
}

/** A growable Int32 list (posting lists and per-document columns). */
class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 8) {
    this.data = new Int32Array(capacity);
  }
  push(v: number) {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = v;
    this.length += 1;
  }
}

/**
 * In-process search index over unsold listings: exact Fuse.js ranking (fuse-score.ts) with a
 * lossless bigram candidate filter, so a query scores a few hundred documents instead of all.
 *
 * Candidate filter (q-gram lemma): a substring within e edits of a pattern of length m keeps at
 * least (m - 1) - 2e of the pattern's bigram positions. Fuse accepts e <= floor(0.3 m), so a
 * document needs at least (m - 1) - 2 floor(0.3 m) >= 1 matching bigram positions, and a
 * document with c of them needs at least ceil((m - 1 - c) / 2) edits in every key. Candidates
 * are visited by c descending; a document whose best possible score (scoreLowerBound) cannot
 * beat the current top `limit` results is skipped without scoring. Results equal Fuse's over
 * the same documents; only patterns over 32 characters are approximate (see docs/decisions.md).
 */
export class SearchIndex {
  private ids = new IntList(1024);
  private prices = new IntList(1024);
  /** Word counts of name, description and category, 8 bits each (capped at MAX_TOKENS). */
  private tokens = new IntList(1024);
  private cats = new Uint8Array(1024);
  private sold = new Uint8Array(1024);
  private alive = new Uint8Array(1024);
  private fields: ScoredFields[] = [];
  private raw: Array<{ name: string; description: string; category: string }> = [];
  private slotById = new Map<number, number>();
  private postings = new Map<number, IntList>();
  /** Per-query work arrays, sized with the index (searches never overlap: they are synchronous). */
  private scratch = {
    candSlot: new Int32Array(1024),
    candPack: new Int32Array(1024),
    candBound: new Float64Array(1024),
    candBucket: new Uint8Array(1024),
    order: new Int32Array(1024),
  };
  private counts: [Uint8Array, Uint8Array, Uint8Array] = [
    new Uint8Array(1024),
    new Uint8Array(1024),
    new Uint8Array(1024),
  ];

  get size(): number {
    return this.ids.length;
  }

  /** Adds a listing, or updates price and sold state of one already indexed. */
  upsert(doc: SearchDoc): void {
    const existing = this.slotById.get(doc.id);
    if (existing !== undefined) {
      this.sold[existing] = doc.isSold ? 1 : 0;
      this.prices.data[existing] = doc.priceCents;
      this.alive[existing] = 1;
      return;
    }
    const slot = this.ids.length;
    this.ensureCapacity(slot + 1);
    this.ids.push(doc.id);
    this.prices.push(doc.priceCents);
    const words = (text: string) =>
      Math.min(MAX_TOKENS, Math.max(1, text.split(/[\t-\r \u00a0]+/).filter(Boolean).length));
    this.tokens.push(words(doc.name) | (words(doc.description) << 8) | (words(doc.category) << 16));
    this.cats[slot] = CATEGORY_INDEX.get(doc.category) ?? 255;
    this.sold[slot] = doc.isSold ? 1 : 0;
    this.alive[slot] = 1;
    const lower = [
      doc.name.toLowerCase(),
      doc.description.toLowerCase(),
      doc.category.toLowerCase(),
    ] as const;
    this.fields.push({
      lower,
      norms: [fieldNorm(doc.name), fieldNorm(doc.description), fieldNorm(doc.category)],
    });
    this.raw.push({ name: doc.name, description: doc.description, category: doc.category });
    this.slotById.set(doc.id, slot);
    lower.forEach((text, key) => {
      const bit = 1 << key;
      for (let i = 0; i + 1 < text.length; i += 1) {
        const gram = text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
        let list = this.postings.get(gram);
        if (!list) {
          list = new IntList(4);
          this.postings.set(gram, list);
        }
        // One entry per document: slot << 3 | the keys (bit 0 name, 1 description, 2 category) holding the bigram.
        const last = list.length - 1;
        if (last >= 0 && (list.data[last] as number) >>> 3 === slot)
          list.data[last] = (list.data[last] as number) | bit;
        else list.push((slot << 3) | bit);
      }
    });
  }

  setSold(id: number, isSold: boolean): void {
    const slot = this.slotById.get(id);
    if (slot !== undefined) this.sold[slot] = isSold ? 1 : 0;
  }

  remove(id: number): void {
    const slot = this.slotById.get(id);
    if (slot !== undefined) this.alive[slot] = 0;
  }

  has(id: number): boolean {
    const slot = this.slotById.get(id);
    return slot !== undefined && this.alive[slot] === 1;
  }

  /**
   * The best `limit` unsold listings for `query` (score ascending, newest first on ties) that
   * pass the filters and come after `after`.
   */
  search(
    query: string,
    filters: SearchFilters,
    limit: number,
    after?: SearchAfter,
    stats?: SearchStats,
  ): SearchHit[] {
    if (query.length === 0) return [];
    const allowed = this.filterFn(filters);
    if (query.length > MAX_PATTERN) return this.searchLong(query, allowed, limit, after);
    const p = compilePattern(query);
    const m = p.length;
    const top = new TopK(limit, after);
    const visit = (slot: number, keys = 7) => {
      const score = documentScore(p, this.fields[slot] as ScoredFields, keys);
      if (stats) stats.scored += 1;
      if (score >= 0) top.offer(score, this.ids.data[slot] as number);
    };
    const minErrorsFor = (shared: number) => Math.max(0, Math.ceil((m - 1 - shared) / 2));
    /**
     * Scores name and category first; the description (the long, costly key) only when the
     * document can still enter the top results. The product is formed in Fuse's key order.
     */
    const visitCandidate = (slot: number, keys: number, a: number, b: number, descBound: number) => {
      if (stats) stats.scored += 1;
      const f = this.fields[slot] as ScoredFields;
      const sn = keys & 1 ? keyScore(p, f.lower[0], minErrorsFor(a)) : -1;
      const sc = keys & 4 ? keyScore(p, f.lower[2], 0) : -1;
      const fn = sn >= 0 ? keyFactor(sn, 0, f.norms[0]) : 1;
      const fc = sc >= 0 ? keyFactor(sc, 2, f.norms[2]) : 1;
      let sd = -1;
      if (keys & 2) {
        if (!(top.full && fn * fc * descBound > top.worstScore * (1 + 1e-9)))
          sd = keyScore(p, f.lower[1], minErrorsFor(b));
        else if (sn < 0 && sc < 0) return;
      }
      if (sn < 0 && sd < 0 && sc < 0) return;
      let total = 1;
      if (sn >= 0) total *= fn;
      if (sd >= 0) total *= keyFactor(sd, 1, f.norms[1]);
      if (sc >= 0) total *= fc;
      top.offer(total, this.ids.data[slot] as number);
    };
    if (m === 1) {
      // No bigram to filter by: a one-character pattern must appear as it is (0 errors).
      for (let slot = this.ids.length - 1; slot >= 0; slot -= 1) if (allowed(slot)) visit(slot);
      return top.sorted();
    }
    const grams = new Map<number, number>();
    for (let i = 0; i + 1 < m; i += 1) {
      const g = p.text.charCodeAt(i) * 65536 + p.text.charCodeAt(i + 1);
      grams.set(g, (grams.get(g) ?? 0) + 1);
    }
    // Shared bigram positions per key.
    const t0 = stats ? performance.now() : 0;
    const [cn, cd, cc] = this.counts;
    for (const [gram, mult] of grams) {
      const list = this.postings.get(gram);
      if (!list) continue;
      const data = list.data;
      for (let i = 0; i < list.length; i += 1) {
        const v = data[i] as number;
        const slot = v >>> 3;
        if (v & 1) cn[slot] = (cn[slot] as number) + mult;
        if (v & 2) cd[slot] = (cd[slot] as number) + mult;
        if (v & 4) cc[slot] = (cc[slot] as number) + mult;
      }
    }
    const t1 = stats ? performance.now() : 0;
    const need = m - 1 - 2 * p.maxErrors;
    const table = factorTable(p);
    const row = MAX_TOKENS + 1;
    const tokens = this.tokens.data;
    // Candidates bucketed (counting sort, no allocation) by the best score they could reach,
    // newest first within a bucket.
    const { candSlot, candPack, candBound, candBucket, order } = this.scratch;
    const hist = new Int32Array(BOUND_BUCKETS + 1);
    let n = 0;
    for (let slot = this.ids.length - 1; slot >= 0; slot -= 1) {
      const a = cn[slot] as number;
      const b = cd[slot] as number;
      const c = cc[slot] as number;
      if ((a | b | c) === 0) continue;
      cn[slot] = 0;
      cd[slot] = 0;
      cc[slot] = 0;
      const keys = (a >= need ? 1 : 0) | (b >= need ? 2 : 0) | (c >= need ? 4 : 0);
      if (keys === 0 || !allowed(slot)) continue;
      const t = tokens[slot] as number;
      const bound =
        (keys & 1 ? (table[a * row + (t & 255)] as number) : 1) *
        (keys & 2 ? (table[(m + b) * row + ((t >>> 8) & 255)] as number) : 1) *
        (keys & 4 ? (table[(2 * m + c) * row + ((t >>> 16) & 255)] as number) : 1);
      const bucket = Math.min(BOUND_BUCKETS - 1, Math.floor(bound * BOUND_BUCKETS));
      candSlot[n] = slot;
      candPack[n] = (a << 8) | (b << 3) | keys;
      candBound[n] = bound;
      candBucket[n] = bucket;
      hist[bucket + 1] = (hist[bucket + 1] as number) + 1;
      n += 1;
    }
    for (let i = 1; i <= BOUND_BUCKETS; i += 1) hist[i] = (hist[i] as number) + (hist[i - 1] as number);
    for (let i = 0; i < n; i += 1) {
      const bucket = candBucket[i] as number;
      order[hist[bucket] as number] = i;
      hist[bucket] = (hist[bucket] as number) + 1;
    }
    // hist[b] is now the end of bucket b in `order`.
    const t2 = stats ? performance.now() : 0;
    if (stats) stats.candidates += n;
    let i = 0;
    for (let bucket = 0; bucket < BOUND_BUCKETS && i < n; bucket += 1) {
      if (top.full && bucket / BOUND_BUCKETS > top.worstScore) break;
      const end = hist[bucket] as number;
      for (; i < end; i += 1) {
        const cand = order[i] as number;
        const bound = candBound[cand] as number;
        if (top.full && bound > top.worstScore) continue;
        const slot = candSlot[cand] as number;
        const pack = candPack[cand] as number;
        const b = (pack >>> 3) & 31;
        const descBound = table[(m + b) * row + (((tokens[slot] as number) >>> 8) & 255)] as number;
        visitCandidate(slot, pack & 7, pack >>> 8, b, descBound);
      }
    }
    if (stats) {
      const t3 = performance.now();
      stats.countMs = t1 - t0;
      stats.bucketMs = t2 - t1;
      stats.scoreMs = t3 - t2;
    }
    return top.sorted();
  }

  private filterFn(filters: SearchFilters): (slot: number) => boolean {
    const catMask = filters.categories?.length
      ? filters.categories.reduce((mask, c) => mask | (1 << (CATEGORY_INDEX.get(c) ?? 31)), 0)
      : -1;
    const min = filters.minCents ?? Number.NEGATIVE_INFINITY;
    const max = filters.maxCents ?? Number.POSITIVE_INFINITY;
    return (slot) => {
      if (this.alive[slot] !== 1 || this.sold[slot] !== 0) return false;
      if (catMask !== -1 && (catMask & (1 << (this.cats[slot] as number))) === 0) return false;
      const price = this.prices.data[slot] as number;
      return price >= min && price <= max;
    };
  }

  /** Patterns over 32 characters: Fuse.js itself over the documents sharing most trigrams. */
  private searchLong(
    query: string,
    allowed: (slot: number) => boolean,
    limit: number,
    after?: SearchAfter,
  ): SearchHit[] {
    const lower = query.toLowerCase();
    const grams = new Set<number>();
    for (let i = 0; i + 1 < lower.length; i += 1)
      grams.add(lower.charCodeAt(i) * 65536 + lower.charCodeAt(i + 1));
    const counts = new Map<number, number>();
    for (const g of grams) {
      const list = this.postings.get(g);
      if (!list) continue;
      for (let i = 0; i < list.length; i += 1) {
        const slot = (list.data[i] as number) >>> 3;
        counts.set(slot, (counts.get(slot) ?? 0) + 1);
      }
    }
    const slots = [...counts.entries()]
      .filter(([slot]) => allowed(slot))
      .sort((a, b) => b[1] - a[1] || b[0] - a[0])
      .slice(0, LONG_QUERY_CANDIDATES)
      .map(([slot]) => slot)
      .sort((a, b) => (this.ids.data[b] as number) - (this.ids.data[a] as number));
    const fuse = new Fuse(
      slots.map((s) => this.raw[s]),
      {
        keys: FUZZY_SEARCH.keys.map((k) => ({ name: k.name, weight: k.weight })),
        threshold: FUZZY_SEARCH.threshold,
        ignoreLocation: FUZZY_SEARCH.ignoreLocation,
        includeScore: true,
      },
    );
    const top = new TopK(limit, after);
    for (const r of fuse.search(query))
      top.offer(r.score ?? 1, this.ids.data[slots[r.refIndex] as number] as number);
    return top.sorted();
  }

  private ensureCapacity(n: number): void {
    if (n <= this.cats.length) return;
    let cap = this.cats.length;
    while (cap < n) cap *= 2;
    const grow = (a: Uint8Array) => {
      const next = new Uint8Array(cap);
      next.set(a);
      return next;
    };
    this.cats = grow(this.cats);
    this.sold = grow(this.sold);
    this.alive = grow(this.alive);
    this.counts = [grow(this.counts[0]), grow(this.counts[1]), grow(this.counts[2])];
    this.scratch = {
      candSlot: new Int32Array(cap),
      candPack: new Int32Array(cap),
      candBound: new Float64Array(cap),
      candBucket: new Uint8Array(cap),
      order: new Int32Array(cap),
    };
  }
}

/** The best k hits after a cursor, ordered by score ascending then id descending. */
class TopK {
  private hits: SearchHit[] = [];
  constructor(
    private readonly k: number,
    private readonly after?: SearchAfter,
  ) {}

  get full(): boolean {
    return this.hits.length >= this.k;
  }

  get worstScore(): number {
    return this.hits[this.hits.length - 1]?.score ?? Number.POSITIVE_INFINITY;
  }

  offer(score: number, id: number): void {
    if (this.after && !comesAfter(score, id, this.after)) return;
    if (this.full && comesAfter(score, id, this.hits[this.hits.length - 1] as SearchHit)) return;
    let lo = 0;
    let hi = this.hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (comesAfter(score, id, this.hits[mid] as SearchHit)) lo = mid + 1;
      else hi = mid;
    }
    this.hits.splice(lo, 0, { score, id });
    if (this.hits.length > this.k) this.hits.pop();
  }

  sorted(): SearchHit[] {
    return this.hits;
  }
}

/** Whether (score, id) ranks after `ref` in (score asc, id desc) order. */
function comesAfter(score: number, id: number, ref: SearchAfter): boolean {
  return score > ref.score || (score === ref.score && id < ref.id);
}
