import { FUZZY_SEARCH } from '@campus/contract';

/**
 * Fuse.js 7 scoring, re-implemented for speed and kept bit-for-bit equal to
 * `new Fuse(docs, { keys: FUZZY_SEARCH.keys, threshold: 0.3, ignoreLocation: true })` for queries of
 * at most 32 characters (Fuse splits longer patterns into chunks; we hand those to Fuse itself).
 *
 * Per key, Fuse looks for the pattern anywhere in the lower-cased text with at most
 * floor(0.3 * m) edits (insertions, deletions, substitutions; m = pattern length):
 *   whole text equal            -> 0
 *   exact substring             -> 0.001
 *   best approximate substring  -> max(0.001, errors / m) if errors / m <= threshold
 * A document's score is the product over its matching keys of score^(weight * fieldNorm)
 * (score 0 counts as Number.EPSILON), fieldNorm = round(1000 / sqrt(words)) / 1000.
 * Lower is better; ties keep list order. fuse-score.test.ts checks agreement with Fuse itself.
 */

export const MAX_PATTERN = 32;
const THRESHOLD = FUZZY_SEARCH.threshold;

/** Key weights normalised exactly as Fuse's KeyStore does (divided by their sum). */
export const KEY_WEIGHTS: readonly [number, number, number] = (() => {
  let total = 0;
  for (const k of FUZZY_SEARCH.keys) total += k.weight;
  const [name, description, category] = FUZZY_SEARCH.keys.map((k) => k.weight / total);
  return [name ?? 0, description ?? 0, category ?? 0];
})();

/** Fuse's field-length norm: 1/sqrt(number of whitespace-separated words), 3 decimals. */
export function fieldNorm(value: string): number {
  let tokens = 0;
  let inWord = false;
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    const sep = (c >= 9 && c <= 13) || c === 32 || c === 160;
    if (!sep) {
      if (!inWord) {
        tokens += 1;
        inWord = true;
      }
    } else inWord = false;
  }
  if (tokens === 0) tokens = 1;
  return Math.round(1000 / Math.pow(tokens, 0.5)) / 1000;
}

/** Trim and collapse whitespace: the server and the agreement tests query with the same text. */
export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ');
}

/** Largest error count Fuse accepts for a pattern of length m (errors / m <= threshold). */
export function maxErrors(m: number): number {
  let k = 0;
  while (k + 1 <= m && (k + 1) / m <= THRESHOLD) k += 1;
  return k;
}

/** A compiled pattern: lower-cased text plus Myers' per-character bit masks. */
export interface Pattern {
  text: string;
  length: number;
  maxErrors: number;
  ascii: Int32Array;
  other: Map<number, number>;
}

export function compilePattern(query: string): Pattern {
  const text = query.toLowerCase();
  const m = text.length;
  if (m === 0 || m > MAX_PATTERN) throw new Error(`pattern length ${m} outside 1..${MAX_PATTERN}`);
  const ascii = new Int32Array(128);
  const other = new Map<number, number>();
  for (let i = 0; i < m; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 128) ascii[c] = (ascii[c] ?? 0) | (1 << i);
    else other.set(c, (other.get(c) ?? 0) | (1 << i));
  }
  return { text, length: m, maxErrors: maxErrors(m), ascii, other };
}

/**
 * Fewest edits turning the pattern into some substring of `text` (Myers' bit-parallel
 * algorithm, semi-global: the match may start and end anywhere in the text). `from`/`to` limit
 * the scan to one stretch of the text (piece-verify.ts scans only windows that can hold a match).
 */
export function minSubstringDistance(
  p: Pattern,
  text: string,
  floor = 0,
  from = 0,
  to = text.length,
): number {
  const m = p.length;
  const hb = 1 << (m - 1);
  let pv = -1;
  let mv = 0;
  let score = m;
  let best = m;
  const { ascii, other } = p;
  for (let j = from; j < to; j += 1) {
    const c = text.charCodeAt(j);
    const eq = c < 128 ? (ascii[c] as number) : (other.get(c) ?? 0);
    const xv = eq | mv;
    const xh = ((((eq & pv) + pv) | 0) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if ((ph & hb) !== 0) score += 1;
    else if ((mh & hb) !== 0) score -= 1;
    ph <<= 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    if (score < best) {
      best = score;
      if (best <= floor) break;
    }
  }
  return best;
}

/**
 * Fuse's per-key score for a lower-cased text, or -1 when the key does not match. `minErrors`,
 * when known (from a q-gram count), lets the edit-distance scan stop as soon as it reaches it.
 */
export function keyScore(p: Pattern, lowerText: string, minErrors = 1): number {
  if (lowerText.length === 0) return -1;
  if (lowerText === p.text) return 0;
  if (lowerText.includes(p.text)) return 0.001;
  if (minErrors / p.length > THRESHOLD) return -1;
  const errors = minSubstringDistance(p, lowerText, Math.max(1, minErrors));
  if (errors / p.length > THRESHOLD) return -1;
  return Math.max(0.001, errors / p.length);
}

/**
 * keyScore when `minErrors` comes from the document's shared bigram count (SearchIndex): a text
 * holding the pattern shares all m - 1 bigram positions, so minErrors >= 1 already rules out
 * equality and an exact occurrence, and only the edit-distance scan is left to run.
 */
export function countedKeyScore(p: Pattern, lowerText: string, minErrors: number): number {
  if (minErrors <= 0) return keyScore(p, lowerText, 0);
  if (lowerText.length === 0 || minErrors / p.length > THRESHOLD) return -1;
  const errors = minSubstringDistance(p, lowerText, minErrors);
  if (errors / p.length > THRESHOLD) return -1;
  return Math.max(0.001, errors / p.length);
}

/** A document prepared for scoring: lower-cased key texts and their field norms. */
export interface ScoredFields {
  lower: readonly [string, string, string];
  norms: readonly [number, number, number];
}

/**
 * Fuse's document score (lower is better), or -1 when no key matches. `keys` (bit k = key k) lets
 * the caller skip keys it already knows cannot match.
 */
export function documentScore(p: Pattern, doc: ScoredFields, keys = 7): number {
  let total = 1;
  let matched = false;
  for (let k = 0; k < 3; k += 1) {
    if ((keys & (1 << k)) === 0) continue;
    const s = keyScore(p, doc.lower[k] as string);
    if (s < 0) continue;
    matched = true;
    total *= Math.pow(s === 0 ? Number.EPSILON : s, (KEY_WEIGHTS[k] as number) * (doc.norms[k] as number));
  }
  return matched ? total : -1;
}

/** The factor of one key in Fuse's product: score^(weight * norm), score 0 counting as EPSILON. */
export function keyFactor(score: number, key: number, norm: number): number {
  return Math.pow(score === 0 ? Number.EPSILON : score, (KEY_WEIGHTS[key] as number) * norm);
}

/**
 * The factor a key contributes at best when it needs at least `minErrors` edits: a key's
 * contribution never goes below this, and a key that cannot match contributes 1.
 */
export function keyFactorLowerBound(p: Pattern, minErrors: number, key: number, norm: number): number {
  if (minErrors <= 0) return 0;
  if (minErrors / p.length > THRESHOLD) return 1;
  return Math.pow(Math.max(0.001, minErrors / p.length), (KEY_WEIGHTS[key] as number) * norm);
}

/**
 * Best score a document could still reach when every key needs at least `minErrors` edits:
 * used to skip documents that cannot enter the current top results.
 */
export function scoreLowerBound(
  p: Pattern,
  minErrors: number,
  norms: readonly [number, number, number],
): number {
  if (minErrors / p.length > THRESHOLD) return Number.POSITIVE_INFINITY;
  let total = 1;
  for (let k = 0; k < 3; k += 1) total *= keyFactorLowerBound(p, minErrors, k, norms[k] as number);
  return total;
}
