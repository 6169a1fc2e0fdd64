import { describe, expect, it } from 'vitest';
import { askingTotal } from './useBundlePicks';

describe('askingTotal', () => {
  const pick = (id: number, price: number) => ({ id, name: `Item ${id}`, price, thumbnailUrl: null });

  it('adds asking prices in cents, so the pre-filled offer has no float dust', () => {
    expect(askingTotal([pick(1, 0.1), pick(2, 0.2)])).toBe(0.3);
    expect(askingTotal([pick(1, 20), pick(2, 15), pick(3, 12.5)])).toBe(47.5);
    expect(askingTotal([])).toBe(0);
  });
});
