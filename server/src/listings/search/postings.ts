import { IntList } from './int-list.js';

/**
 * Fewest entries appended since the last compaction before `settle` compacts: below this a
 * compaction would cost more than the small lists it frees.
 */
const COMPACT_MIN = 1024;

/**
 * Most entries a partition freezes (16 MB). Beyond it entries stay in growable lists, as before:
 * a large partition's lists are long, so their per-list overhead is small, while each compaction
 * would briefly hold both copies and leave freed arrays the allocator keeps (measured on 1M
 * listings: +280 MB peak and +70 MB RSS after the build).
 */
const COMPACT_MAX = 1 << 22;

/**
 * The bigram posting lists of one index partition. A per-list typed array costs far more than
 * its entries in a small partition (object, ArrayBuffer, doubling slack), and a deployment holds
 * one partition per campus; so the lists live frozen in one shared Int32Array with offsets, keys
 * sorted in a Float64Array (gram keys exceed the small-integer range a Map stores unboxed).
 * Entries added since the last compaction sit in small growable overflow lists, merged in by
 * `compact`, which `settle` runs once they reach half the frozen entries (amortised O(1) per
 * entry) and a loader runs when a partition is loaded. A list reads as its frozen part, then its
 * overflow: the same entries in the same order as one list appended to all along.
 */
/** Where a list's entries are: up to two ranges (Postings.ranges). */
export interface PostingRanges {
  data: Int32Array[];
  from: number[];
  to: number[];
}

export const postingRanges = (): PostingRanges => ({ data: [], from: [0, 0], to: [0, 0] });

export class Postings {
  /** Frozen lists: key `keys[i]` holds `data[starts[i] .. starts[i + 1])`. */
  private keys = new Float64Array(0);
  private starts = new Int32Array(1);
  private data = new Int32Array(0);
  private overflow = new Map<number, IntList>();
  private overflowEntries = 0;

  /**
   * Adds document `slot`'s key bit to list `key`: one entry per document, slot << 3 | the keys
   * holding the bigram, so a slot's later bits merge into its last entry. Slots only grow and a
   * document's entries are all added before the next `settle`, so that entry is in the overflow.
   */
  add(key: number, slot: number, bit: number): void {
    let list = this.overflow.get(key);
    if (!list) {
      list = new IntList(2);
      this.overflow.set(key, list);
    }
    const last = list.length - 1;
    if (last >= 0 && (list.data[last] as number) >>> 3 === slot)
      list.data[last] = (list.data[last] as number) | bit;
    else {
      list.push((slot << 3) | bit);
      this.overflowEntries += 1;
    }
  }

  /** Compacts when the overflow has grown enough to pay for it (call between documents). */
  settle(): void {
    if (this.overflowEntries >= Math.max(COMPACT_MIN, this.data.length >>> 1)) this.compact();
  }

  /**
   * List `key` as [data, from, to] ranges: the frozen part, then the overflow (either may be
   * absent). Ranges rather than a callback keep the readers' hot loops in their own functions.
   */
  ranges(key: number, out: PostingRanges): number {
    let n = 0;
    const at = this.find(key);
    if (at >= 0) {
      out.data[0] = this.data;
      out.from[0] = this.starts[at] as number;
      out.to[0] = this.starts[at + 1] as number;
      n = 1;
    }
    const list = this.overflow.get(key);
    if (list) {
      out.data[n] = list.data;
      out.from[n] = 0;
      out.to[n] = list.length;
      n += 1;
    }
    return n;
  }

  /** Merges the overflow lists into the frozen arrays, exactly sized (up to COMPACT_MAX entries). */
  compact(): void {
    if (this.overflowEntries === 0 || this.data.length + this.overflowEntries > COMPACT_MAX) return;
    const added = Float64Array.from(this.overflow.keys()).sort();
    const old = this.keys;
    // Union of the two sorted key sets.
    const keys = new Float64Array(old.length + added.length);
    let n = 0;
    for (let i = 0, j = 0; i < old.length || j < added.length;) {
      const a = i < old.length ? (old[i] as number) : Infinity;
      const b = j < added.length ? (added[j] as number) : Infinity;
      keys[n] = Math.min(a, b);
      n += 1;
      if (a <= b) i += 1;
      if (b <= a) j += 1;
    }
    const starts = new Int32Array(n + 1);
    const data = new Int32Array(this.data.length + this.overflowEntries);
    let pos = 0;
    for (let i = 0, o = 0; i < n; i += 1) {
      const key = keys[i] as number;
      starts[i] = pos;
      if (o < old.length && old[o] === key) {
        const from = this.starts[o] as number;
        const to = this.starts[o + 1] as number;
        data.set(this.data.subarray(from, to), pos);
        pos += to - from;
        o += 1;
      }
      const list = this.overflow.get(key);
      if (list) {
        data.set(list.data.subarray(0, list.length), pos);
        pos += list.length;
      }
    }
    starts[n] = pos;
    this.keys = n === keys.length ? keys : keys.slice(0, n);
    this.starts = starts;
    this.data = data;
    this.overflow = new Map();
    this.overflowEntries = 0;
  }

  /** Index of `key` among the frozen keys, or -1 (a binary search: a query looks up a few hundred). */
  private find(key: number): number {
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < keys.length && keys[lo] === key ? lo : -1;
  }
}
