import { CATEGORIES } from '@campus/contract';
import { allPositions, boundFactor, editsFor, markBigramPositions, patternBigrams } from './bigram-filter.js';
import { exactCodeSlots, filterBounds, filterFn, groupsFor } from './filter-plan.js';
import {
  MAX_PATTERN,
  compilePattern,
  countedKeyScore,
  documentScore,
  fieldNorm,
  keyFactor,
  keyScore,
  type ScoredFields,
} from './fuse-score.js';
import { ListingColumns, MAX_TOKENS } from './index-columns.js';
import { searchLong } from './long-query.js';
import { PieceVerifier } from './piece-verify.js';
import type {
  ListSort,
  SearchAfter,
  SearchDoc,
  SearchFilters,
  SearchHit,
  SearchStats,
  SortedAfter,
  SortedHit,
} from './search-types.js';
import { searchSorted } from './sorted-search.js';
import { TopK } from './top-k.js';

export type {
  ListSort,
  SearchAfter,
  SearchDoc,
  SearchFilters,
  SearchHit,
  SearchStats,
  SortedAfter,
  SortedHit,
} from './search-types.js';

/** Candidates are visited in this many buckets of the best score they could reach. */
const BOUND_BUCKETS = 256;

/**
 * In-process search index over unsold listings: exact Fuse.js ranking (fuse-score.ts) with a
 * lossless bigram candidate filter (bigram-filter.ts), so a query scores a few thousand documents
 * instead of all. Storage is index-columns.ts; filters filter-plan.ts; the non-relevance sorts
 * sorted-search.ts; patterns over 32 characters long-query.ts. The relevance search below is
 * one function on purpose: its candidate loop runs for thousands of slots per query, with no
 * call or closure per candidate beyond those it has always made.
 *
 * The category key holds one of a handful of texts and is scored exactly, once per query.
 * Candidates are visited by the best score they could reach (bucketed); a document whose bound
 * cannot beat the current top `limit` results, ties included (newest first), is skipped without
 * scoring. Results equal Fuse's over the same documents; only patterns over 32 characters are
 * approximate (see docs/decisions.md).
 */
export class SearchIndex {
  private readonly columns = new ListingColumns();

  get size(): number {
    return this.columns.size;
  }

  /**
   * Adds a listing, or updates one already indexed. An edited name, description or category
   * retires the old slot and indexes the listing again in a new one (posting lists are append-only).
   */
  upsert(doc: SearchDoc): void {
    this.columns.upsert(doc);
  }

  /**
   * Freezes the posting lists added so far into one array (index-columns.ts, postings.ts): call
   * once a bulk load is done, so a small partition does not keep its lists as separate arrays.
   */
  compact(): void {
    this.columns.compact();
  }

  setSold(id: number, isSold: boolean): void {
    this.columns.setSold(id, isSold);
  }

  remove(id: number): void {
    this.columns.remove(id);
  }

  has(id: number): boolean {
    return this.columns.has(id);
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
    const columns = this.columns;
    const allowed = filterFn(columns, filters);
    if (query.length > MAX_PATTERN) return searchLong(columns, query, allowed, limit, after);
    const ids = columns.ids.data;
    const { fields, names, descs, cats } = columns;
    const p = compilePattern(query);
    const m = p.length;
    const top = new TopK(limit, after);
    // A query that is a course code or an ISBN ranks the books carrying it first (score 0,
    // below any Fuse score), whether or not their text matches.
    const exact = exactCodeSlots(columns, query, allowed);
    for (const slot of exact) top.offer(0, ids[slot] as number);
    const visit = (slot: number, keys = 7) => {
      const score = documentScore(p, fields[slot] as ScoredFields, keys);
      if (stats) stats.scored += 1;
      if (score >= 0) top.offer(score, ids[slot] as number);
    };
    /**
     * Scores name and category first; the description (the long, costly key) only when the
     * document can still enter the top results. The product is formed in Fuse's key order.
     */
    // The category key holds one of a handful of texts: its score is worked out once per query.
    const catScores = new Float64Array(CATEGORIES.length).fill(Number.NaN);
    // Categories whose text matches the pattern: their listings are candidates even when name
    // and description share no bigram with it.
    const catFactors = new Float64Array(CATEGORIES.length).fill(1);
    let catMatches = 0;
    CATEGORIES.forEach((c, i) => {
      const sc = keyScore(p, c.toLowerCase(), 0);
      catScores[i] = sc;
      if (sc >= 0) {
        catMatches |= 1 << i;
        catFactors[i] = keyFactor(sc, 2, fieldNorm(c));
      }
    });
    const categoryText = (slot: number) => (fields[slot] as ScoredFields).lower[2];
    const categoryScore = (slot: number): number => {
      const cat = cats[slot] as number;
      if (cat >= CATEGORIES.length) return keyScore(p, categoryText(slot), 0);
      let sc = catScores[cat] as number;
      if (Number.isNaN(sc)) {
        sc = keyScore(p, categoryText(slot), 0);
        catScores[cat] = sc;
      }
      return sc;
    };
    // Descriptions are verified only where a match can be (piece-verify.ts), not scanned whole.
    const verifier = new PieceVerifier(p);
    const visitCandidate = (
      slot: number,
      keys: number,
      a: number,
      b: number,
      descBound: number,
      descPresent: number,
    ) => {
      if (stats) stats.scored += 1;
      const sn = keys & 1 ? countedKeyScore(p, names[slot] as string, a) : -1;
      const sc = keys & 4 ? categoryScore(slot) : -1;
      // The field norms (another object) only once a key matches.
      const fn = sn >= 0 ? keyFactor(sn, 0, (fields[slot] as ScoredFields).norms[0]) : 1;
      const fc = sc >= 0 ? keyFactor(sc, 2, (fields[slot] as ScoredFields).norms[2]) : 1;
      let sd = -1;
      if (keys & 2) {
        if (!(top.full && fn * fc * descBound > top.worstScore * (1 + 1e-9)))
          sd = verifier.keyScore(descs[slot] as string, b, descPresent);
        else if (sn < 0 && sc < 0) return;
      }
      if (sn < 0 && sd < 0 && sc < 0) return;
      const f = fields[slot] as ScoredFields;
      let total = 1;
      if (sn >= 0) total *= fn;
      if (sd >= 0) total *= keyFactor(sd, 1, f.norms[1]);
      if (sc >= 0) total *= fc;
      top.offer(total, ids[slot] as number);
    };
    if (m === 1) {
      // No bigram to filter by: a one-character pattern must appear as it is (0 errors).
      for (let slot = columns.size - 1; slot >= 0; slot -= 1)
        if (allowed(slot) && !exact.has(slot)) visit(slot);
      return top.sorted();
    }
    // The pattern's bigrams with their positions; per document and key, the positions it holds.
    const grams = patternBigrams(p);
    const t0 = stats ? performance.now() : 0;
    markBigramPositions(columns, grams, groupsFor(filters));
    const masks = columns.masks;
    const t1 = stats ? performance.now() : 0;
    const k = p.maxErrors;
    const all = allPositions(m);
    const row = MAX_TOKENS + 1;
    const table = new Float64Array(3 * (k + 1) * row).fill(Number.NaN);
    const factor = (key: number, minErrors: number, words: number): number => {
      const at = (key * (k + 1) + minErrors) * row + words;
      let f = table[at] as number;
      if (Number.isNaN(f)) {
        f = boundFactor(p, key, minErrors, words);
        table[at] = f;
      }
      return f;
    };
    const tokens = columns.tokens.data;
    const { alive, sold, conds } = columns;
    const prices = columns.prices.data;
    const { catMask, min, max, condMask, course, isbn } = filterBounds(columns, filters);
    const courses = columns.courses.data;
    const isbns = columns.isbns.data;
    const extra = condMask !== -1 || course !== 0 || isbn !== 0 || exact.size > 0;
    // Candidates bucketed (counting sort, no allocation) by the best score they could reach,
    // newest first within a bucket.
    const { candSlot, candPack, candDesc, candBound, candBucket, order } = columns.scratch;
    const ptext = p.text;
    const hist = new Int32Array(BOUND_BUCKETS + 1);
    let n = 0;
    for (let slot = columns.size - 1; slot >= 0; slot -= 1) {
      const at = slot << 1;
      const xn = masks[at] as number;
      const xd = masks[at + 1] as number;
      const cat = cats[slot] as number;
      if ((xn | xd) === 0 && (catMatches & (1 << cat)) === 0 && cat < CATEGORIES.length) continue;
      masks[at] = 0;
      masks[at + 1] = 0;
      if (alive[slot] !== 1 || sold[slot] !== 0) continue;
      if (catMask !== -1 && (catMask & (1 << cat)) === 0) continue;
      const price = prices[slot] as number;
      if (price < min || price > max) continue;
      if (extra) {
        if (condMask !== -1 && (condMask & (1 << (conds[slot] as number))) === 0) continue;
        if (course !== 0 && courses[slot] !== course) continue;
        if (isbn !== 0 && isbns[slot] !== isbn) continue;
        if (exact.has(slot)) continue;
      }
      // Fewest edits name and description need (see editsFor); above k they cannot match. The
      // category's exact score is known (categoryScore).
      let a = editsFor(all & ~xn, k);
      let b = editsFor(all & ~xd, k);
      // A key holding every pattern bigram may still need an edit (a typo query such as
      // "textbok" against "textbook"): one native substring test tells, and a bound of one edit
      // instead of none keeps such candidates from being scored before the real best ones.
      if (a === 0 && !(names[slot] as string).includes(ptext)) a = 1;
      if (b === 0 && !(descs[slot] as string).includes(ptext)) b = 1;
      const known = cat < CATEGORIES.length;
      const sc = known ? (catScores[cat] as number) : categoryScore(slot);
      const keys = (a <= k ? 1 : 0) | (b <= k ? 2 : 0) | (sc >= 0 ? 4 : 0);
      if (keys === 0) continue;
      const t = tokens[slot] as number;
      const bound =
        (keys & 1 ? factor(0, a, t & 255) : 1) *
        (keys & 2 ? factor(1, b, (t >>> 8) & 255) : 1) *
        (keys & 4
          ? known
            ? (catFactors[cat] as number)
            : keyFactor(sc, 2, (fields[slot] as ScoredFields).norms[2])
          : 1);
      const bucket = Math.min(BOUND_BUCKETS - 1, Math.floor(bound * BOUND_BUCKETS));
      candSlot[n] = slot;
      candPack[n] = ((a & 15) << 7) | ((b & 15) << 3) | keys;
      candDesc[n] = xd;
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
        const slot = candSlot[cand] as number;
        // Cannot enter: even its best score ranks after the current last result. On an equal
        // score the newer listing ranks first, so an older one with bound == worst cannot either
        // (bounds are formed in the same key order as scores, so float rounding keeps bound <= score).
        if (top.full && top.excludes(bound, ids[slot] as number)) continue;
        const pack = candPack[cand] as number;
        const b = (pack >>> 3) & 15;
        const descBound = pack & 2 ? factor(1, b, ((tokens[slot] as number) >>> 8) & 255) : 1;
        visitCandidate(slot, pack & 7, (pack >>> 7) & 15, b, descBound, candDesc[cand] as number);
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

  /**
   * Every listing the query matches (a Fuse match or a course code / ISBN equal to the query)
   * passing the filters, in `sort` order after `after`, at most `limit` (sorted-search.ts).
   */
  searchSorted(
    query: string,
    filters: SearchFilters,
    sort: ListSort,
    limit: number,
    after?: SortedAfter,
  ): SortedHit[] {
    return searchSorted(this.columns, query, filters, sort, limit, after);
  }
}
