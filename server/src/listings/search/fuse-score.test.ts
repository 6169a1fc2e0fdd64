import { FUZZY_SEARCH } from '@campus/contract';
import Fuse from 'fuse.js';
import { describe, expect, it } from 'vitest';
import {
  compilePattern,
  documentScore,
  fieldNorm,
  maxErrors,
  minSubstringDistance,
  scoreLowerBound,
} from './fuse-score.js';
import { seededRandom } from '../../../test/random.js';

interface Doc {
  name: string;
  description: string;
  category: string;
}

function fuseOver(docs: Doc[]) {
  return new Fuse(docs, {
    keys: FUZZY_SEARCH.keys.map((k) => ({ name: k.name, weight: k.weight })),
    threshold: FUZZY_SEARCH.threshold,
    ignoreLocation: FUZZY_SEARCH.ignoreLocation,
    includeScore: true,
  });
}

function prepared(d: Doc) {
  return {
    lower: [d.name.toLowerCase(), d.description.toLowerCase(), d.category.toLowerCase()] as const,
    norms: [fieldNorm(d.name), fieldNorm(d.description), fieldNorm(d.category)] as const,
  };
}

function randomText(rand: () => number, alphabet: string, min: number, max: number): string {
  const n = min + Math.floor(rand() * (max - min + 1));
  let s = '';
  for (let i = 0; i < n; i += 1) s += alphabet[Math.floor(rand() * alphabet.length)];
  return s;
}

/** Plain dynamic-programming reference for the semi-global edit distance. */
function referenceDistance(pattern: string, text: string): number {
  const m = pattern.length;
  let prev = Array.from({ length: m + 1 }, (_, i) => i);
  let best = m;
  for (let j = 1; j <= text.length; j += 1) {
    const cur = [0];
    for (let i = 1; i <= m; i += 1) {
      const cost = pattern[i - 1] === text[j - 1] ? 0 : 1;
      cur[i] = Math.min((prev[i - 1] as number) + cost, (prev[i] as number) + 1, (cur[i - 1] as number) + 1);
    }
    best = Math.min(best, cur[m] as number);
    prev = cur;
  }
  return best;
}

describe('fuse-score', () => {
  it('allows floor(0.3 * m) errors', () => {
    expect([1, 3, 4, 6, 7, 10, 13, 14, 20, 32].map(maxErrors)).toEqual([0, 0, 1, 1, 2, 3, 3, 4, 6, 9]);
  });

  it('computes the semi-global edit distance like the textbook dynamic programme', () => {
    const rand = seededRandom(7);
    for (let n = 0; n < 3000; n += 1) {
      const pattern = randomText(rand, 'abcd ', 1, 32);
      const text = randomText(rand, 'abcd ', 0, 60);
      expect(minSubstringDistance(compilePattern(pattern), text), `${pattern} / ${text}`).toBe(
        referenceDistance(pattern, text),
      );
    }
  });

  it('gives exactly the scores Fuse.js gives, on random documents and patterns', () => {
    const rand = seededRandom(11);
    for (let round = 0; round < 60; round += 1) {
      const docs: Doc[] = Array.from({ length: 40 }, () => ({
        name: randomText(rand, 'abcde fg', 1, 24),
        description: randomText(rand, 'abcde fgh', 1, 120),
        category: randomText(rand, 'abc', 1, 8),
      }));
      const fuse = fuseOver(docs);
      for (let q = 0; q < 10; q += 1) {
        const query = randomText(rand, 'abcde fg', 1, 32).trim() || 'a';
        const expected = new Map(fuse.search(query).map((r) => [r.refIndex, r.score]));
        const p = compilePattern(query);
        docs.forEach((d, i) => {
          const ours = documentScore(p, prepared(d));
          const theirs = expected.get(i);
          if (theirs === undefined) expect(ours, `${query} vs ${JSON.stringify(d)}`).toBe(-1);
          else expect(ours, `${query} vs ${JSON.stringify(d)}`).toBe(theirs);
        });
      }
    }
  });

  it('agrees with Fuse.js on realistic listings, including whole-field equality and case', () => {
    const docs: Doc[] = [
      {
        name: 'Graphing Calculator TI-84',
        description: 'Works great, batteries included.',
        category: 'ELECTRONICS',
      },
      { name: 'Books', description: 'A box of books', category: 'BOOKS' },
      { name: 'Mini fridge', description: 'Compact mini fridge for dorms', category: 'LIFESTYLE' },
      { name: 'Calculus textbook', description: 'Stewart, 8th edition', category: 'BOOKS' },
      { name: 'Ünïcode Chair', description: 'Straße café', category: 'OTHER' },
    ];
    const fuse = fuseOver(docs);
    for (const query of [
      'books',
      'Calculater',
      'mini frige',
      'calculus',
      'CHAIR',
      'straße',
      'x',
      'electronics',
    ]) {
      const expected = new Map(fuse.search(query).map((r) => [r.refIndex, r.score]));
      docs.forEach((d, i) => {
        const ours = documentScore(compilePattern(query), prepared(d));
        expect(ours, `${query} / ${d.name}`).toBe(expected.get(i) ?? -1);
      });
    }
  });

  it('never bounds a document above its real score', () => {
    const rand = seededRandom(3);
    for (let n = 0; n < 2000; n += 1) {
      const doc: Doc = {
        name: randomText(rand, 'abcd ', 1, 20),
        description: randomText(rand, 'abcd ', 1, 80),
        category: randomText(rand, 'abc', 1, 6),
      };
      const p = compilePattern(randomText(rand, 'abcd', 3, 20));
      const f = prepared(doc);
      const score = documentScore(p, f);
      if (score < 0) continue;
      const errors = Math.min(...f.lower.map((t) => (t.includes(p.text) ? 0 : minSubstringDistance(p, t))));
      expect(scoreLowerBound(p, errors, f.norms)).toBeLessThanOrEqual(score);
    }
  });
});
