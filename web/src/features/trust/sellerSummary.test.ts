import { describe, expect, it } from 'vitest';
import type { TimeBasis } from '../../ui/timeBasis';
import { sellerSummary } from './sellerSummary';

const base = {
  ratingAverage: null,
  ratingCount: 0,
  dealsCount: 0,
  medianReplyMinutes: null,
  memberSince: '2026-03-10T12:00:00.000Z',
};
const basis: TimeBasis = { now: Date.parse('2026-11-26T12:00:00Z'), locale: 'en-US', timeZone: 'UTC' };

describe('sellerSummary', () => {
  it('calls a seller without reviews or deals new, and gives their campus age', () => {
    const s = sellerSummary(base, basis);
    expect(s).toEqual({
      stars: null,
      rating: 'New seller · no reviews yet',
      deals: null,
      reply: 'Member since March 2026',
    });
  });

  it('keeps the deals of a seller whose reviews are still blind', () => {
    const s = sellerSummary({ ...base, dealsCount: 2 }, basis);
    expect(s.rating).toBe('No reviews yet');
    expect(s.deals).toBe('2 deals');
  });

  it('gives the rating with its count, the deals and the usual reply time', () => {
    const s = sellerSummary(
      { ...base, ratingAverage: 4.5, ratingCount: 1, dealsCount: 1, medianReplyMinutes: 3 },
      basis,
    );
    expect(s).toMatchObject({
      stars: 4.5,
      rating: '4.5 · 1 review',
      deals: '1 deal',
      reply: 'Usually replies within minutes',
    });
    expect(sellerSummary({ ...base, ratingAverage: 4, ratingCount: 3, medianReplyMinutes: 120 }).reply).toBe(
      'Usually replies about 2 hours',
    );
  });
});
