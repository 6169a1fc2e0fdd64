import {
  CATEGORIES,
  CONDITIONS,
  FUZZY_SEARCH,
  normalizeCourseCode,
  normalizeIsbn,
  type Category,
  type Sort,
} from '@campus/contract';
import Fuse from 'fuse.js';
import {
  KEY_WEIGHTS,
  MAX_PATTERN,
  compilePattern,
  documentScore,
  keyFactor,
  countedKeyScore,
  keyScore,
  fieldNorm,
  keyFactorLowerBound,
  type Pattern,
  type ScoredFields,
} from './fuse-score.js';
import { PieceVerifier } from './piece-verify.js';
import { SortedSlots } from './sorted-slots.js';

/** What the index keeps of a listing. */
export interface SearchDoc {
  id: number;
  name: string;
  description: string;
  category: string;
  priceCents: number;
  isSold: boolean;
  condition?: string | null;
  courseCode?: string | null;
  isbn?: string | null;
}

export interface SearchFilters {
  categories?: readonly Category[];
  minCents?: number;
  maxCents?: number;
  conditions?: readonly string[];
  courseCode?: string;
  isbn?: string;
}

/**
 * Position in a result list: for relevance, results come after (score, id) in (score asc, id
 * desc) order; for the other sorts `score` holds the sort key (see SortedAfter).
 */
export interface SearchAfter {
  score: number;
  id: number;
}

/** Orders other than relevance: newest (id desc), price_asc (price, id asc), price_desc (price, id desc). */
export type ListSort = Exclude<Sort, 'relevance'>;

/** Position in a sorted result list: after (price, id) in the sort's order; price unused for newest. */
export interface SortedAfter {
  price: number;
  id: number;
}

export interface SortedHit {
  id: number;
  price: number;
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
/** Condition codes per slot: 0 none, 1.. the CONDITIONS index + 1. */
const CONDITION_CODE = new Map<string, number>(CONDITIONS.map((c, i) => [c, i + 1]));

const BOUND_BUCKETS = 256;

/** Posting-list groups: one per category, one more for anything else. */
const GROUPS = 8;
const ALL_GROUPS = Array.from({ length: GROUPS }, (_, g) => g);
const categoryGroup = (catIndex: number) => Math.min(catIndex, GROUPS - 1);

/** Word counts above this share one norm in the bound tables (a smaller norm only loosens the bound). */
const MAX_TOKENS = 255;

/**
 * The lowest factor key `key` can contribute when it needs at least `minErrors` edits and has
 * `words` words. With 0 edits the key could equal the pattern exactly, which Fuse scores as
 * EPSILON. Worked out lazily per query (SearchIndex.search keeps a table).
 */
function boundFactor(p: Pattern, key: number, minErrors: number, words: number): number {
  const norm = Math.round(1000 / Math.pow(words, 0.5)) / 1000;
  return minErrors === 0
    ? Math.pow(Number.EPSILON, (KEY_WEIGHTS[key] as number) * norm)
    : keyFactorLowerBound(p, minErrors, key, norm);
}

/**
 * Fewest edits a key needs, from the pattern bigram positions whose bigram it lacks (`missing`,
 * bit i = position i). An edit touches at most two neighbouring positions (a substitution or
 * deletion of pattern character i: positions i - 1 and i; an insertion: one), and every position
 * no edit touches keeps its bigram in the text. So the missing positions are covered by one
 * two-position "domino" per edit, and the fewest dominoes covering them (greedy from the lowest
 * bit) is a lower bound on the edits. Returns k + 1 as soon as it exceeds k.
 */
function editsFor(missing: number, k: number): number {
  let edits = 0;
  let rest = missing;
  while (rest !== 0) {
    edits += 1;
    if (edits > k) return edits;
    const low = rest & -rest;
    rest &= ~(low | (low << 1));
  }
  return edits;
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
 * lossless bigram candidate filter, so a query scores a few thousand documents instead of all.
 *
 * Candidate filter (q-gram lemma, with positions): an edit touches at most two neighbouring
 * bigram positions of the pattern, and every position no edit touches keeps its bigram in the
 * text. Per document, name and description record which of the pattern's bigram positions they
 * hold (posting lists per bigram, split by category so a category filter reads only its own);
 * the missing positions must be covered by at most k = floor(0.3 m) two-position "dominoes"
 * (editsFor), and that cover count is also a lower bound on the key's edits. The category key
 * holds one of a handful of texts and is scored exactly, once per query. Candidates are visited
 * by the best score they could reach (bucketed); a document whose bound cannot beat the current
 * top `limit` results, ties included (newest first), is skipped without scoring. Results equal
 * Fuse's over the same documents; only patterns over 32 characters are approximate (see
 * docs/decisions.md).
 */
export class SearchIndex {
  private ids = new IntList(1024);
  private prices = new IntList(1024);
  /** Word counts of name, description and category, 8 bits each (capped at MAX_TOKENS). */
  private tokens = new IntList(1024);
  private cats = new Uint8Array(1024);
  private sold = new Uint8Array(1024);
  private alive = new Uint8Array(1024);
  private conds = new Uint8Array(1024);
  /** Interned course code and ISBN per slot (0 = none). */
  private courses = new IntList(1024);
  private isbns = new IntList(1024);
  private courseIds = new Map<string, number>();
  /** Slots by (id) and by (price, id), for the sorted searches. */
  private byId = new SortedSlots(
    (slot) => this.ids.data[slot] as number,
    () => 0,
  );
  private byPrice = new SortedSlots(
    (slot) => this.prices.data[slot] as number,
    (slot) => this.ids.data[slot] as number,
  );
  private isbnIds = new Map<string, number>();
  private fields: ScoredFields[] = [];
  /**
   * The lower-cased names and descriptions again, one array each: the candidate loop reads them
   * for thousands of slots per query, and one load per text instead of three (fields[slot], its
   * `lower` tuple, the string) saves cache misses that cost as much as the verification itself.
   */
  private names: string[] = [];
  private descs: string[] = [];
  private raw: Array<{ name: string; description: string; category: string }> = [];
  private slotById = new Map<number, number>();
  /**
   * Bigram posting lists, one per bigram and category group (key gram * 8 + group; group = the
   * category's index, 7 for any other), so a search filtered by category reads only its own.
   */
  private postings = new Map<number, IntList>();
  /** Per-query work arrays, sized with the index (searches never overlap: they are synchronous). */
  private scratch = {
    candSlot: new Int32Array(1024),
    candPack: new Int32Array(1024),
    candDesc: new Int32Array(1024),
    candBound: new Float64Array(1024),
    candBucket: new Uint8Array(1024),
    order: new Int32Array(1024),
  };
  /** Per-query bigram position masks (see search), name and description per slot, zeroed as read. */
  private masks = new Int32Array(2 * 1024);

  get size(): number {
    return this.ids.length;
  }

  private intern(map: Map<string, number>, value: string | null | undefined, add: boolean): number {
    if (!value) return 0;
    let id = map.get(value);
    if (id === undefined) {
      if (!add) return -1;
      id = map.size + 1;
      map.set(value, id);
    }
    return id;
  }

  /**
   * Adds a listing, or updates one already indexed. An edited name, description or category
   * retires the old slot and indexes the listing again in a new one (posting lists are append-only).
   */
  upsert(doc: SearchDoc): void {
    const existing = this.slotById.get(doc.id);
    if (existing !== undefined) {
      const old = this.raw[existing];
      if (
        old &&
        old.name === doc.name &&
        old.description === doc.description &&
        old.category === doc.category
      ) {
        this.sold[existing] = doc.isSold ? 1 : 0;
        if (this.prices.data[existing] !== doc.priceCents) {
          this.prices.data[existing] = doc.priceCents;
          this.byPrice.touch(existing);
        }
        this.conds[existing] = CONDITION_CODE.get(doc.condition ?? '') ?? 0;
        this.courses.data[existing] = this.intern(this.courseIds, doc.courseCode, true);
        this.isbns.data[existing] = this.intern(this.isbnIds, doc.isbn, true);
        this.alive[existing] = 1;
        return;
      }
      this.alive[existing] = 0;
      this.slotById.delete(doc.id);
    }
    const slot = this.ids.length;
    this.ensureCapacity(slot + 1);
    this.ids.push(doc.id);
    this.prices.push(doc.priceCents);
    this.conds[slot] = CONDITION_CODE.get(doc.condition ?? '') ?? 0;
    this.courses.push(this.intern(this.courseIds, doc.courseCode, true));
    this.isbns.push(this.intern(this.isbnIds, doc.isbn, true));
    this.byId.touch(slot);
    this.byPrice.touch(slot);
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
    this.names.push(lower[0]);
    this.descs.push(lower[1]);
    this.fields.push({
      lower,
      norms: [fieldNorm(doc.name), fieldNorm(doc.description), fieldNorm(doc.category)],
    });
    this.raw.push({ name: doc.name, description: doc.description, category: doc.category });
    this.slotById.set(doc.id, slot);
    const group = categoryGroup(this.cats[slot] as number);
    lower.forEach((text, key) => {
      const bit = 1 << key;
      for (let i = 0; i + 1 < text.length; i += 1) {
        const gram = (text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1)) * GROUPS + group;
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
    // A query that is a course code or an ISBN ranks the books carrying it first (score 0,
    // below any Fuse score), whether or not their text matches.
    const exact = this.exactCodeSlots(query, allowed);
    for (const slot of exact) top.offer(0, this.ids.data[slot] as number);
    const visit = (slot: number, keys = 7) => {
      const score = documentScore(p, this.fields[slot] as ScoredFields, keys);
      if (stats) stats.scored += 1;
      if (score >= 0) top.offer(score, this.ids.data[slot] as number);
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
    const fields = this.fields;
    const categoryText = (slot: number) => (fields[slot] as ScoredFields).lower[2];
    const categoryScore = (slot: number): number => {
      const cat = this.cats[slot] as number;
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
    const { names, descs } = this;
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
      top.offer(total, this.ids.data[slot] as number);
    };
    if (m === 1) {
      // No bigram to filter by: a one-character pattern must appear as it is (0 errors).
      for (let slot = this.ids.length - 1; slot >= 0; slot -= 1)
        if (allowed(slot) && !exact.has(slot)) visit(slot);
      return top.sorted();
    }
    // The pattern's bigrams, each with the bit mask of the positions it holds in the pattern.
    const grams = new Map<number, number>();
    for (let i = 0; i + 1 < m; i += 1) {
      const g = p.text.charCodeAt(i) * 65536 + p.text.charCodeAt(i + 1);
      grams.set(g, (grams.get(g) ?? 0) | (1 << i));
    }
    // Per document and key, the pattern's bigram positions whose bigram the key holds.
    const t0 = stats ? performance.now() : 0;
    const masks = this.masks;
    const groups = this.groupsFor(filters);
    for (const [gram, positions] of grams) {
      for (const group of groups) {
        const list = this.postings.get(gram * GROUPS + group);
        if (!list) continue;
        const data = list.data;
        for (let i = 0; i < list.length; i += 1) {
          const v = data[i] as number;
          const at = (v >>> 3) << 1;
          // Branch-free: -(bit) is all ones when the key holds the bigram, else zero.
          masks[at] = (masks[at] as number) | (positions & -(v & 1));
          masks[at + 1] = (masks[at + 1] as number) | (positions & -((v >>> 1) & 1));
        }
      }
    }
    const t1 = stats ? performance.now() : 0;
    const k = p.maxErrors;
    const all = m - 1 === 31 ? 0x7fffffff : (1 << (m - 1)) - 1;
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
    const tokens = this.tokens.data;
    const { alive, sold, cats } = this;
    const prices = this.prices.data;
    const { catMask, min, max, condMask, course, isbn } = this.filterBounds(filters);
    const { conds } = this;
    const courses = this.courses.data;
    const isbns = this.isbns.data;
    const extra = condMask !== -1 || course !== 0 || isbn !== 0 || exact.size > 0;
    // Candidates bucketed (counting sort, no allocation) by the best score they could reach,
    // newest first within a bucket.
    const { candSlot, candPack, candDesc, candBound, candBucket, order } = this.scratch;
    const ptext = p.text;
    const hist = new Int32Array(BOUND_BUCKETS + 1);
    let n = 0;
    for (let slot = this.ids.length - 1; slot >= 0; slot -= 1) {
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
        if (top.full && top.excludes(bound, this.ids.data[slot] as number)) continue;
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

  /** The posting-list groups a search with these filters needs to read. */
  private groupsFor(filters: SearchFilters): number[] {
    if (!filters.categories?.length) return ALL_GROUPS;
    const groups = new Set<number>();
    for (const c of filters.categories) {
      const index = CATEGORY_INDEX.get(c);
      if (index !== undefined) groups.add(categoryGroup(index));
    }
    return [...groups];
  }

  /**
   * Filter bounds: category and condition bit masks (-1 = any), price range, and the interned
   * course code / ISBN (0 = any; -1 when nothing indexed carries it, so nothing passes).
   */
  private filterBounds(filters: SearchFilters): {
    catMask: number;
    min: number;
    max: number;
    condMask: number;
    course: number;
    isbn: number;
  } {
    return {
      catMask: filters.categories?.length
        ? filters.categories.reduce((mask, c) => mask | (1 << (CATEGORY_INDEX.get(c) ?? 31)), 0)
        : -1,
      min: filters.minCents ?? Number.NEGATIVE_INFINITY,
      max: filters.maxCents ?? Number.POSITIVE_INFINITY,
      condMask: filters.conditions?.length
        ? filters.conditions.reduce((mask, c) => mask | (1 << (CONDITION_CODE.get(c) ?? 31)), 0)
        : -1,
      course: this.intern(this.courseIds, filters.courseCode, false),
      isbn: this.intern(this.isbnIds, filters.isbn, false),
    };
  }

  private filterFn(filters: SearchFilters): (slot: number) => boolean {
    const { catMask, min, max, condMask, course, isbn } = this.filterBounds(filters);
    return (slot) => {
      if (this.alive[slot] !== 1 || this.sold[slot] !== 0) return false;
      if (catMask !== -1 && (catMask & (1 << (this.cats[slot] as number))) === 0) return false;
      if (condMask !== -1 && (condMask & (1 << (this.conds[slot] as number))) === 0) return false;
      if (course !== 0 && this.courses.data[slot] !== course) return false;
      if (isbn !== 0 && this.isbns.data[slot] !== isbn) return false;
      const price = this.prices.data[slot] as number;
      return price >= min && price <= max;
    };
  }

  /** Live slots passing the filters whose course code or ISBN is the query (normalised). */
  private exactCodeSlots(query: string, allowed: (slot: number) => boolean): Set<number> {
    const found = new Set<number>();
    const courseCode = normalizeCourseCode(query);
    const isbnCode = normalizeIsbn(query);
    const course = courseCode ? (this.courseIds.get(courseCode) ?? 0) : 0;
    const isbn = isbnCode ? (this.isbnIds.get(isbnCode) ?? 0) : 0;
    if (course === 0 && isbn === 0) return found;
    const courses = this.courses.data;
    const isbns = this.isbns.data;
    for (let slot = this.ids.length - 1; slot >= 0; slot -= 1) {
      if ((course !== 0 && courses[slot] === course) || (isbn !== 0 && isbns[slot] === isbn)) {
        if (allowed(slot)) found.add(slot);
      }
    }
    return found;
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
      for (let group = 0; group < GROUPS; group += 1) {
        const list = this.postings.get(g * GROUPS + group);
        if (!list) continue;
        for (let i = 0; i < list.length; i += 1) {
          const slot = (list.data[i] as number) >>> 3;
          counts.set(slot, (counts.get(slot) ?? 0) + 1);
        }
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

  /**
   * Every listing the query matches (a Fuse match or a course code / ISBN equal to the query)
   * passing the filters, in `sort` order after `after`, at most `limit`. The bigram filter marks
   * the candidates; they are walked in sort order (SortedSlots) and scored one by one until the
   * page is full, so a common word stops early and a rare one scores only its few candidates.
   */
  searchSorted(
    query: string,
    filters: SearchFilters,
    sort: ListSort,
    limit: number,
    after?: SortedAfter,
  ): SortedHit[] {
    if (query.length === 0) return [];
    const allowed = this.filterFn(filters);
    const exact = this.exactCodeSlots(query, allowed);
    const matches = this.matcher(query, filters);
    const ids = this.ids.data;
    const prices = this.prices.data;
    const hits: SortedHit[] = [];
    const take = (slot: number): boolean => {
      if (!allowed(slot)) return false;
      if (!exact.has(slot) && !matches(slot)) return false;
      hits.push({ id: ids[slot] as number, price: prices[slot] as number });
      return hits.length >= limit;
    };
    if (sort === 'newest') {
      const order = this.byId.slots();
      let i = after ? this.byId.lowerBound(after.id, 0) - 1 : order.length - 1;
      for (; i >= 0; i -= 1) if (take(order[i] as number)) break;
    } else if (sort === 'price_asc') {
      const order = this.byPrice.slots();
      let i = after ? this.byPrice.lowerBound(after.price, after.id + 1) : 0;
      for (; i < order.length; i += 1) if (take(order[i] as number)) break;
    } else {
      const order = this.byPrice.slots();
      let i = after ? this.byPrice.lowerBound(after.price, after.id) - 1 : order.length - 1;
      for (; i >= 0; i -= 1) if (take(order[i] as number)) break;
    }
    return hits;
  }

  /**
   * Whether a slot's text matches the query (Fuse threshold): the bigram cover refuses most
   * slots without scoring; long patterns are checked by Fuse itself.
   */
  private matcher(query: string, filters: SearchFilters): (slot: number) => boolean {
    if (query.length > MAX_PATTERN) {
      return (slot) => {
        const raw = this.raw[slot];
        if (!raw) return false;
        const fuse = new Fuse([raw], {
          keys: FUZZY_SEARCH.keys.map((k) => ({ name: k.name, weight: k.weight })),
          threshold: FUZZY_SEARCH.threshold,
          ignoreLocation: FUZZY_SEARCH.ignoreLocation,
        });
        return fuse.search(query).length > 0;
      };
    }
    const p = compilePattern(query);
    const m = p.length;
    if (m === 1) return (slot) => documentScore(p, this.fields[slot] as ScoredFields) >= 0;
    const k = p.maxErrors;
    const all = m - 1 === 31 ? 0x7fffffff : (1 << (m - 1)) - 1;
    // Per slot, the pattern bigram positions name and description hold (as in search()), then
    // the keys that can still match.
    const grams = new Map<number, number>();
    for (let i = 0; i + 1 < m; i += 1) {
      const g = p.text.charCodeAt(i) * 65536 + p.text.charCodeAt(i + 1);
      grams.set(g, (grams.get(g) ?? 0) | (1 << i));
    }
    const masks = this.masks;
    for (const [gram, positions] of grams) {
      for (const group of this.groupsFor(filters)) {
        const list = this.postings.get(gram * GROUPS + group);
        if (!list) continue;
        const data = list.data;
        for (let i = 0; i < list.length; i += 1) {
          const v = data[i] as number;
          const at = (v >>> 3) << 1;
          masks[at] = (masks[at] as number) | (positions & -(v & 1));
          masks[at + 1] = (masks[at + 1] as number) | (positions & -((v >>> 1) & 1));
        }
      }
    }
    const size = this.ids.length;
    const found = new Uint8Array(size);
    for (let slot = 0; slot < size; slot += 1) {
      const at = slot << 1;
      const xn = masks[at] as number;
      const xd = masks[at + 1] as number;
      if ((xn | xd) === 0) continue;
      masks[at] = 0;
      masks[at + 1] = 0;
      found[slot] = (editsFor(all & ~xn, k) <= k ? 1 : 0) | (editsFor(all & ~xd, k) <= k ? 2 : 0);
    }
    const catMatch = CATEGORIES.map((c) => keyScore(p, c.toLowerCase(), 0) >= 0);
    return (slot) => {
      const cat = this.cats[slot] as number;
      const keys = (found[slot] ?? 0) | ((cat < CATEGORIES.length ? catMatch[cat] : true) ? 4 : 0);
      return keys !== 0 && documentScore(p, this.fields[slot] as ScoredFields, keys) >= 0;
    };
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
    this.conds = grow(this.conds);
    this.sold = grow(this.sold);
    this.alive = grow(this.alive);
    const masks = new Int32Array(2 * cap);
    masks.set(this.masks);
    this.masks = masks;
    this.scratch = {
      candSlot: new Int32Array(cap),
      candPack: new Int32Array(cap),
      candDesc: new Int32Array(cap),
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

  /** Whether a full list rejects every hit scoring `bound` or more with this id. */
  excludes(bound: number, id: number): boolean {
    const last = this.hits[this.hits.length - 1];
    return last !== undefined && (bound > last.score || (bound === last.score && id < last.id));
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
