import { KEY_WEIGHTS, keyFactorLowerBound, type Pattern } from './fuse-score.js';
import { GROUPS, type ListingColumns } from './index-columns.js';
import { postingRanges } from './postings.js';

/**
 * The lossless candidate filter (q-gram lemma, with positions): an edit touches at most two
 * neighbouring bigram positions of the pattern, and every position no edit touches keeps its
 * bigram in the text. Per document, name and description record which of the pattern's bigram
 * positions they hold (posting lists per bigram, split by category so a category filter reads only
 * its own); the missing positions must be covered by at most k = floor(0.3 m) two-position
 * "dominoes" (editsFor), and that cover count is also a lower bound on the key's edits, from
 * which boundFactor gives the best score the key could reach.
 */

/** The pattern's bigrams, each with the bit mask of the positions it holds in the pattern. */
export function patternBigrams(p: Pattern): Map<number, number> {
  const grams = new Map<number, number>();
  for (let i = 0; i + 1 < p.length; i += 1) {
    const g = p.text.charCodeAt(i) * 65536 + p.text.charCodeAt(i + 1);
    grams.set(g, (grams.get(g) ?? 0) | (1 << i));
  }
  return grams;
}

/**
 * Marks, per slot, the pattern bigram positions its name (masks[2 slot]) and description
 * (masks[2 slot + 1]) hold, reading the posting lists of the given category groups. The reader
 * zeroes each slot's masks as it consumes them, so the array is clean for the next query.
 */
export function markBigramPositions(
  columns: ListingColumns,
  grams: Map<number, number>,
  groups: readonly number[],
): void {
  const masks = columns.masks;
  const ranges = postingRanges();
  for (const [gram, positions] of grams) {
    for (const group of groups) {
      const n = columns.postings.ranges(gram * GROUPS + group, ranges);
      for (let r = 0; r < n; r += 1) {
        const data = ranges.data[r] as Int32Array;
        const to = ranges.to[r] as number;
        for (let i = ranges.from[r] as number; i < to; i += 1) {
          const v = data[i] as number;
          const at = (v >>> 3) << 1;
          // Branch-free: -(bit) is all ones when the key holds the bigram, else zero.
          masks[at] = (masks[at] as number) | (positions & -(v & 1));
          masks[at + 1] = (masks[at + 1] as number) | (positions & -((v >>> 1) & 1));
        }
      }
    }
  }
}

/**
 * Fewest edits a key needs, from the pattern bigram positions whose bigram it lacks (`missing`,
 * bit i = position i). An edit touches at most two neighbouring positions (a substitution or
 * deletion of pattern character i: positions i - 1 and i; an insertion: one), and every position
 * no edit touches keeps its bigram in the text. So the missing positions are covered by one
 * two-position "domino" per edit, and the fewest dominoes covering them (greedy from the lowest
 * bit) is a lower bound on the edits. Returns k + 1 as soon as it exceeds k.
 */
export function editsFor(missing: number, k: number): number {
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

/**
 * The lowest factor key `key` can contribute when it needs at least `minErrors` edits and has
 * `words` words. With 0 edits the key could equal the pattern exactly, which Fuse scores as
 * EPSILON. Worked out lazily per query (SearchIndex.search keeps a table).
 */
export function boundFactor(p: Pattern, key: number, minErrors: number, words: number): number {
  const norm = Math.round(1000 / Math.pow(words, 0.5)) / 1000;
  return minErrors === 0
    ? Math.pow(Number.EPSILON, (KEY_WEIGHTS[key] as number) * norm)
    : keyFactorLowerBound(p, minErrors, key, norm);
}

/** The bit mask of all pattern bigram positions (m - 1 of them). */
export const allPositions = (m: number): number => (m - 1 === 31 ? 0x7fffffff : (1 << (m - 1)) - 1);
