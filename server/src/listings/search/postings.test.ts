import { describe, expect, it } from 'vitest';
import { Postings, postingRanges } from './postings.js';
import { seededRandom } from '../../../test/random.js';

/** A list's entries as readers see them: frozen part, then overflow. */
function entries(postings: Postings, key: number): number[] {
  const ranges = postingRanges();
  const out: number[] = [];
  const n = postings.ranges(key, ranges);
  for (let r = 0; r < n; r += 1)
    out.push(...(ranges.data[r] as Int32Array).subarray(ranges.from[r], ranges.to[r]));
  return out;
}

describe('Postings', () => {
  it('reads every list as one list appended to all along, whenever it compacts', () => {
    const rand = seededRandom(5);
    const postings = new Postings();
    const expected = new Map<number, number[]>();
    // Keys beyond the small-integer range, as gram keys are ((c1 * 65536 + c2) * 8 + group).
    const keys = Array.from({ length: 300 }, (_, i) => (i * 7919 + 65) * 524288 + (i % 8));
    for (let slot = 0; slot < 3000; slot += 1) {
      for (let j = 0; j < 12; j += 1) {
        const key = keys[Math.floor(rand() * keys.length)] as number;
        const bit = 1 << Math.floor(rand() * 3);
        postings.add(key, slot, bit);
        const list = expected.get(key) ?? [];
        const last = list.length - 1;
        if (last >= 0 && (list[last] as number) >>> 3 === slot) list[last] = (list[last] as number) | bit;
        else list.push((slot << 3) | bit);
        expected.set(key, list);
      }
      postings.settle();
      if (slot % 500 === 0) postings.compact();
      if (slot % 97 === 0)
        for (const key of keys.slice(0, 20)) expect(entries(postings, key)).toEqual(expected.get(key) ?? []);
    }
    for (const key of keys) expect(entries(postings, key)).toEqual(expected.get(key) ?? []);
    postings.compact();
    for (const key of keys) expect(entries(postings, key)).toEqual(expected.get(key) ?? []);
    expect(entries(postings, 12345)).toEqual([]);
  });
});
