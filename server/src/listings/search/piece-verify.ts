import { FUZZY_SEARCH } from '@campus/contract';
import { minSubstringDistance, type Pattern } from './fuse-score.js';

const THRESHOLD = FUZZY_SEARCH.threshold;

/** Windows collected per text before a full scan is cheaper than windows (and scratch size). */
const MAX_WINDOWS = 64;

/** Pieces of the pattern one of which any match must hold exactly: text and pattern offset. */
interface Plan {
  pieces: string[];
  offsets: number[];
}

/**
 * Exact edit-distance verification of a candidate text (the description) that scans only the
 * stretches of the text where a match can be, instead of the whole text.
 *
 * Why: a filtered search with few or no matches spends almost all its time proving, with Myers'
 * scan over the whole description, that each of thousands of bigram candidates does not match.
 *
 * Lossless (pigeonhole, "partition into exact pieces"): cut k + 1 disjoint pieces out of the
 * pattern (k = Fuse's error budget). An edit (substitution, deletion, insertion inside a piece)
 * breaks at most one piece, so a substring within k edits of the pattern holds at least one piece
 * exactly, shifted by at most k from where the pattern puts it. Pieces that hold a bigram the
 * text lacks (known from the posting lists: `present`) never occur, so the plan spends them on
 * those ("dead" pieces, one per missing bigram the greedy domino cover picks) and cuts the rest of
 * the pattern into as long as possible "live" pieces; only windows of m + 2k characters around
 * each occurrence of a live piece are scanned. Every window is a stretch of the real text, so the
 * minimum over windows is never below the true distance, and a match within k edits lies inside
 * one window: the result is exact whenever the distance is at most k, and above k otherwise.
 */
export class PieceVerifier {
  /** Plans per mask of present bigram positions (a query sees only a handful of masks). */
  private readonly plans = new Map<number, Plan | null>();
  private readonly starts = new Int32Array(MAX_WINDOWS);
  private readonly ends = new Int32Array(MAX_WINDOWS);

  constructor(private readonly p: Pattern) {}

  /**
   * Fuse's score of `text` for this pattern (as countedKeyScore), or -1 when it does not match.
   * `minErrors` is the bigram cover's lower bound on the edits, `present` the pattern bigram
   * positions (bit i = bigram at i) the text holds.
   */
  keyScore(text: string, minErrors: number, present: number): number {
    const p = this.p;
    if (text.length === 0 || minErrors / p.length > THRESHOLD) return -1;
    let floor = minErrors;
    if (minErrors <= 0) {
      if (text === p.text) return 0;
      if (text.includes(p.text)) return 0.001;
      floor = 1;
    }
    const errors = this.distance(text, present, floor);
    if (errors / p.length > THRESHOLD) return -1;
    return Math.max(0.001, errors / p.length);
  }

  /**
   * Fewest edits turning the pattern into a substring of `text`, exact when at most k (else some
   * value above k). Stops at `floor`, a known lower bound.
   */
  distance(text: string, present: number, floor: number): number {
    const p = this.p;
    const plan = this.planFor(present);
    if (plan === null) return minSubstringDistance(p, text, floor);
    const m = p.length;
    const k = p.maxErrors;
    const { starts, ends } = this;
    let n = 0;
    for (let j = 0; j < plan.pieces.length; j += 1) {
      const piece = plan.pieces[j] as string;
      const shift = plan.offsets[j] as number;
      for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + 1)) {
        if (n === MAX_WINDOWS) return minSubstringDistance(p, text, floor);
        // Insertion sort by start: a text has few occurrences of its live pieces.
        const start = Math.max(0, at - shift - k);
        const end = Math.min(text.length, at - shift + m + k);
        let i = n;
        while (i > 0 && (starts[i - 1] as number) > start) {
          starts[i] = starts[i - 1] as number;
          ends[i] = ends[i - 1] as number;
          i -= 1;
        }
        starts[i] = start;
        ends[i] = end;
        n += 1;
      }
    }
    // No live piece occurs: no substring is within k edits.
    let best = m;
    let i = 0;
    while (i < n) {
      // Overlapping windows are scanned as one stretch (still a stretch of the real text).
      const from = starts[i] as number;
      let to = ends[i] as number;
      i += 1;
      while (i < n && (starts[i] as number) <= to) {
        to = Math.max(to, ends[i] as number);
        i += 1;
      }
      const d = minSubstringDistance(p, text, floor, from, to);
      if (d < best) {
        best = d;
        if (best <= floor) break;
      }
    }
    return best;
  }

  private planFor(present: number): Plan | null {
    let plan = this.plans.get(present);
    if (plan === undefined) {
      plan = makePlan(this.p.length, this.p.maxErrors, this.p.text, present);
      this.plans.set(present, plan);
    }
    return plan;
  }
}

/**
 * The live pieces for a text holding the pattern bigram positions `present`, or null when they
 * would be single characters (which occur everywhere: a full scan is cheaper).
 */
export function makePlan(m: number, k: number, text: string, present: number): Plan | null {
  if (k === 0 || m < 4) return null;
  const all = m - 1 === 31 ? 0x7fffffff : (1 << (m - 1)) - 1;
  // Dead pieces: greedy from the lowest missing bigram position, as editsFor; each uses the two
  // characters of its bigram, and the next one starts past them.
  const used = new Uint8Array(m);
  let dead = 0;
  let rest = all & ~present;
  while (rest !== 0) {
    const low = rest & -rest;
    const i = 31 - Math.clz32(low);
    used[i] = 1;
    used[i + 1] = 1;
    dead += 1;
    rest &= ~(low | (low << 1));
  }
  const live = k + 1 - dead;
  if (live <= 0) return { pieces: [], offsets: [] };
  // The unused stretches of the pattern, cut into `live` pieces as long as possible.
  const gaps: Array<[number, number]> = [];
  for (let i = 0; i < m;) {
    if (used[i]) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < m && !used[j]) j += 1;
    gaps.push([i, j - i]);
    i = j;
  }
  // Greedy: each next piece goes to the stretch where it leaves the longest pieces, which
  // maximises the shortest piece (short pieces occur everywhere and make many windows).
  const counts = gaps.map(() => 0);
  for (let piece = 0; piece < live; piece += 1) {
    let best = -1;
    let bestLength = 0;
    gaps.forEach(([, g], i) => {
      const l = Math.floor(g / ((counts[i] as number) + 1));
      if (l > bestLength) {
        best = i;
        bestLength = l;
      }
    });
    if (bestLength < 2) return null;
    counts[best] = (counts[best] as number) + 1;
  }
  const cut: Array<[number, number]> = [];
  gaps.forEach(([start, g], i) => {
    const count = counts[i] as number;
    for (let c = 0, at = start; c < count; c += 1) {
      // Split the stretch evenly: the first (g % count) pieces take one character more.
      const l = Math.floor(g / count) + (c < g % count ? 1 : 0);
      cut.push([at, l]);
      at += l;
    }
  });
  return {
    pieces: cut.map(([at, l]) => text.slice(at, at + l)),
    offsets: cut.map(([at]) => at),
  };
}
