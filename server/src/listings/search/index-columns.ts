import { CATEGORIES, CONDITIONS } from '@campus/contract';
import { fieldNorm, type ScoredFields } from './fuse-score.js';
import type { SearchDoc } from './search-types.js';
import { IntList } from './int-list.js';
import { Postings } from './postings.js';
import { SortedSlots } from './sorted-slots.js';

export { IntList } from './int-list.js';

/**
 * The search index's storage: one slot per indexed version of a listing, held column-wise in typed
 * arrays (what the candidate loop reads for thousands of slots per query), the scored texts, the
 * bigram posting lists and the sort orders. Written only by `upsert`, `setSold` and `remove`; the
 * query code (search-index.ts, sorted-search.ts, long-query.ts) only reads it.
 */

export const CATEGORY_INDEX = new Map<string, number>(CATEGORIES.map((c, i) => [c, i]));
/** Condition codes per slot: 0 none, 1.. the CONDITIONS index + 1. */
export const CONDITION_CODE = new Map<string, number>(CONDITIONS.map((c, i) => [c, i + 1]));

/** Posting-list groups: one per category, one more for anything else. */
export const GROUPS = 8;
export const ALL_GROUPS = Array.from({ length: GROUPS }, (_, g) => g);
export const categoryGroup = (catIndex: number) => Math.min(catIndex, GROUPS - 1);

/** Word counts above this share one norm in the bound tables (a smaller norm only loosens the bound). */
export const MAX_TOKENS = 255;

/**
 * Per-query work arrays. Searches in one thread never overlap (they are synchronous; a worker
 * thread has its own module instance), so one set serves every partition of a thread, sized to
 * the largest: per-partition copies cost ~25 KB each for thousands of small campuses.
 */
export interface Scratch {
  candSlot: Int32Array;
  candPack: Int32Array;
  candDesc: Int32Array;
  candBound: Float64Array;
  candBucket: Uint8Array;
  order: Int32Array;
}

const scratchOf = (capacity: number): Scratch => ({
  candSlot: new Int32Array(capacity),
  candPack: new Int32Array(capacity),
  candDesc: new Int32Array(capacity),
  candBound: new Float64Array(capacity),
  candBucket: new Uint8Array(capacity),
  order: new Int32Array(capacity),
});

let sharedScratch = scratchOf(0);
/**
 * Per-query bigram position masks (bigram-filter.ts), name and description per slot. Shared like
 * the scratch: every reader zeroes each slot's masks as it consumes them (over all slots of the
 * partition it marked), so the array is all zeros between queries, whichever partition ran last.
 */
let sharedMasks = new Int32Array(0);

/** Smallest power of two (at least 1024) holding n, so the shared arrays are reallocated rarely. */
const capacityFor = (n: number) => {
  let cap = 1024;
  while (cap < n) cap *= 2;
  return cap;
};

/** Initial capacity of the per-slot columns: most campuses hold few listings. */
const INITIAL_SLOTS = 16;

export class ListingColumns {
  readonly ids = new IntList(INITIAL_SLOTS);
  readonly prices = new IntList(INITIAL_SLOTS);
  /** Word counts of name, description and category, 8 bits each (capped at MAX_TOKENS). */
  readonly tokens = new IntList(INITIAL_SLOTS);
  cats = new Uint8Array(INITIAL_SLOTS);
  sold = new Uint8Array(INITIAL_SLOTS);
  alive = new Uint8Array(INITIAL_SLOTS);
  conds = new Uint8Array(INITIAL_SLOTS);
  /** Interned course code and ISBN per slot (0 = none). */
  readonly courses = new IntList(INITIAL_SLOTS);
  readonly isbns = new IntList(INITIAL_SLOTS);
  readonly courseIds = new Map<string, number>();
  readonly isbnIds = new Map<string, number>();
  /** Slots by (id) and by (price, id), for the sorted searches. */
  readonly byId = new SortedSlots(
    (slot) => this.ids.data[slot] as number,
    () => 0,
  );
  readonly byPrice = new SortedSlots(
    (slot) => this.prices.data[slot] as number,
    (slot) => this.ids.data[slot] as number,
  );
  readonly fields: ScoredFields[] = [];
  /**
   * The lower-cased names and descriptions again, one array each: the candidate loop reads them
   * for thousands of slots per query, and one load per text instead of three (fields[slot], its
   * `lower` tuple, the string) saves cache misses that cost as much as the verification itself.
   */
  readonly names: string[] = [];
  readonly descs: string[] = [];
  readonly raw: Array<{ name: string; description: string; category: string }> = [];
  private readonly slotById = new Map<number, number>();
  /**
   * Bigram posting lists, one per bigram and category group (key gram * 8 + group; group = the
   * category's index, 7 for any other), so a search filtered by category reads only its own.
   */
  readonly postings = new Postings();

  /** The process's per-query work arrays, at least this partition's size. */
  get scratch(): Scratch {
    if (sharedScratch.order.length < this.size) sharedScratch = scratchOf(capacityFor(this.size));
    return sharedScratch;
  }

  /** The process's bigram position masks, two per slot of this partition at least (all zero). */
  get masks(): Int32Array {
    if (sharedMasks.length < 2 * this.size) sharedMasks = new Int32Array(2 * capacityFor(this.size));
    return sharedMasks;
  }

  /** Slots in use, live or retired. */
  get size(): number {
    return this.ids.length;
  }

  /** The interned id of a course code (0 for none; -1 when nothing indexed carries it). */
  courseId(value: string | null | undefined): number {
    return intern(this.courseIds, value, false);
  }

  /** The interned id of an ISBN (0 for none; -1 when nothing indexed carries it). */
  isbnId(value: string | null | undefined): number {
    return intern(this.isbnIds, value, false);
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
        this.courses.data[existing] = intern(this.courseIds, doc.courseCode, true);
        this.isbns.data[existing] = intern(this.isbnIds, doc.isbn, true);
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
    this.courses.push(intern(this.courseIds, doc.courseCode, true));
    this.isbns.push(intern(this.isbnIds, doc.isbn, true));
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
        // One entry per document: slot << 3 | the keys (bit 0 name, 1 description, 2 category) holding the bigram.
        this.postings.add(gram, slot, bit);
      }
    });
    this.postings.settle();
  }

  /** Freezes the posting lists added so far into the partition's shared array (after a load). */
  compact(): void {
    this.postings.compact();
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
  }
}

/** The id of a value in an interning table (0 for none); added when `add`, else -1 when unknown. */
function intern(map: Map<string, number>, value: string | null | undefined, add: boolean): number {
  if (!value) return 0;
  let id = map.get(value);
  if (id === undefined) {
    if (!add) return -1;
    id = map.size + 1;
    map.set(value, id);
  }
  return id;
}
