import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/random.js';
import { compilePattern, countedKeyScore, minSubstringDistance, MAX_PATTERN } from './fuse-score.js';
import { makePlan, PieceVerifier } from './piece-verify.js';

/** The pattern bigram positions a text holds, as the index's posting lists report them. */
function presentMask(pattern: string, text: string): number {
  let mask = 0;
  for (let i = 0; i + 1 < pattern.length; i += 1) if (text.includes(pattern.slice(i, i + 2))) mask |= 1 << i;
  return mask;
}

/** The index's lower bound on the edits (editsFor in search-index.ts, uncapped). */
function cover(pattern: string, present: number): number {
  const all = pattern.length - 1 === 31 ? 0x7fffffff : (1 << (pattern.length - 1)) - 1;
  let rest = all & ~present;
  let edits = 0;
  while (rest !== 0) {
    edits += 1;
    const low = rest & -rest;
    rest &= ~(low | (low << 1));
  }
  return edits;
}

/** A copy of `s` with `n` random edits (substitutions, insertions, deletions) from `alphabet`. */
function mutate(rand: () => number, s: string, n: number, alphabet: string): string {
  let out = s;
  for (let e = 0; e < n; e += 1) {
    const at = Math.floor(rand() * (out.length + 1));
    const c = alphabet[Math.floor(rand() * alphabet.length)] as string;
    const kind = Math.floor(rand() * 3);
    if (kind === 0 && at < out.length) out = out.slice(0, at) + c + out.slice(at + 1);
    else if (kind === 1 || out.length <= 1) out = out.slice(0, at) + c + out.slice(at);
    else out = out.slice(0, Math.min(at, out.length - 1)) + out.slice(Math.min(at, out.length - 1) + 1);
  }
  return out;
}

const WORDS = [
  'tutoring',
  'textbook',
  'headphones',
  'calculator',
  'pickup',
  'near',
  'the',
  'library',
  'ring',
  'tour',
];

describe('PieceVerifier', () => {
  // The guard against a filter that drops real matches: on thousands of seeded texts and
  // patterns (many within a few edits of a piece of the text, the hard cases), the windowed
  // distance equals Myers' full scan whenever that is within the error budget, and is above
  // the budget exactly when the full scan is; the score equals countedKeyScore's.
  it('finds every match the full scan finds, with the same distance and score', () => {
    const rand = seededRandom(2026);
    let checked = 0;
    let matched = 0;
    for (let round = 0; round < 6000; round += 1) {
      // Small alphabets make repeated bigrams and near misses common; words give realistic text.
      const alphabet = round % 3 === 0 ? 'abc ' : round % 3 === 1 ? 'abcdefgh ' : 'etaoinsrhl ';
      const text =
        round % 2 === 0
          ? Array.from(
              { length: 1 + Math.floor(rand() * 40) },
              () => WORDS[Math.floor(rand() * WORDS.length)],
            ).join(' ')
          : Array.from(
              { length: Math.floor(rand() * 300) },
              () => alphabet[Math.floor(rand() * alphabet.length)],
            ).join('');
      const m = 2 + Math.floor(rand() * (MAX_PATTERN - 1));
      const from = Math.floor(rand() * Math.max(1, text.length - m));
      const base =
        text.length >= m && rand() < 0.8 ? text.slice(from, from + m) : mutate(rand, 'tutoring', 0, alphabet);
      const query = mutate(rand, base, Math.floor(rand() * 5), alphabet).slice(0, MAX_PATTERN);
      if (query.length === 0) continue;
      const p = compilePattern(query);
      const present = presentMask(p.text, text);
      const minErrors = cover(p.text, present);
      const full = minSubstringDistance(p, text);
      const verifier = new PieceVerifier(p);
      const fast = verifier.distance(text, present, 0);
      if (full <= p.maxErrors) {
        expect(fast, `${JSON.stringify(query)} in ${JSON.stringify(text)}`).toBe(full);
        matched += 1;
      } else expect(fast).toBeGreaterThan(p.maxErrors);
      if (minErrors <= p.maxErrors)
        expect(verifier.keyScore(text, minErrors, present), query).toBe(countedKeyScore(p, text, minErrors));
      checked += 1;
    }
    // The comparison must have covered matches and non-matches alike.
    expect(checked).toBeGreaterThan(5000);
    expect(matched).toBeGreaterThan(1000);
    expect(checked - matched).toBeGreaterThan(1000);
  });

  it('spends pieces on bigrams the text lacks and cuts the rest as long as it can', () => {
    // "tutoring", k = 2, every bigram present: three live pieces.
    expect(makePlan(8, 2, 'tutoring', 0b1111111)?.pieces).toEqual(['tut', 'ori', 'ng']);
    // Bigrams "ut" (1) and "in" (5) missing: two dead pieces, one live piece from what is left.
    expect(makePlan(8, 2, 'tutoring', 0b1011101)?.pieces).toEqual(['or']);
    // Three disjoint bigrams missing: no match possible, nothing to look for.
    expect(makePlan(8, 2, 'tutoring', 0b0101010)?.pieces).toEqual([]);
    // Pieces would be single characters: no plan (full scan).
    expect(makePlan(4, 1, 'abcd', 0b101)).toBeNull();
  });
});
