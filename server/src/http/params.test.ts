import { DB_INT_MAX } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { parseId } from './params.js';

describe('an id in a path', () => {
  it('is a whole number from 1 to the largest database integer', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('0042')).toBe(42);
    expect(parseId(String(DB_INT_MAX))).toBe(DB_INT_MAX);
  });

  it('is nothing else: zero, signs, fractions, letters, too many digits, beyond the range', () => {
    for (const raw of [undefined, '', '0', '-1', '+1', '1.5', '1e3', ' 1', '12a', 'abc', '12345678901']) {
      expect(parseId(raw), String(raw)).toBeUndefined();
    }
    expect(parseId(String(DB_INT_MAX + 1))).toBeUndefined();
  });
});
