import { randomInt } from 'node:crypto';

/**
 * Where the draw's randomness comes from: an integer in [0, maxExclusive). Production uses the
 * CSPRNG (node:crypto randomInt, unbiased); tests inject a deterministic source.
 */
export type RandomSource = (maxExclusive: number) => number;

export const cryptoRandom: RandomSource = (maxExclusive) => randomInt(0, maxExclusive);

/**
 * A uniformly random order of `items` (Fisher–Yates: every permutation equally likely when the
 * source is uniform). The input order (claim ids, i.e. who claimed first) does not matter.
 */
export function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random(i + 1);
    if (!Number.isInteger(j) || j < 0 || j > i) throw new Error(`random source gave ${j} for [0, ${i + 1})`);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
