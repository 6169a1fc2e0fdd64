import { describe, expect, it } from 'vitest';
import { expiryLabel, priceGuideLine } from '@campus/contract';
import { priceGuideAsk, type GuideFields } from './priceGuideAsk';

const fields = (over: Partial<GuideFields>): GuideFields => ({
  name: '',
  category: '',
  condition: '',
  courseCode: '',
  isbn: '',
  ...over,
});

describe('what the form asks the price guide for', () => {
  it('asks nothing without a category, or with a name too short to mean anything', () => {
    expect(priceGuideAsk(fields({ name: 'Desk lamp' }))).toBeNull();
    expect(priceGuideAsk(fields({ name: 'la', category: 'LIFESTYLE' }))).toBeNull();
  });

  it('asks by category, condition and name', () => {
    expect(
      priceGuideAsk(fields({ name: '  Desk   lamp ', category: 'LIFESTYLE', condition: 'GOOD' })),
    ).toEqual({ category: 'LIFESTYLE', condition: 'GOOD', query: 'Desk lamp' });
    expect(priceGuideAsk(fields({ name: 'Desk lamp', category: 'LIFESTYLE' }))).toEqual({
      category: 'LIFESTYLE',
      condition: null,
      query: 'Desk lamp',
    });
  });

  it('asks a book by its ISBN or course once they are whole, by name before', () => {
    const book = { name: 'Algorithms', category: 'BOOKS' as const };
    expect(priceGuideAsk(fields({ ...book, isbn: '978-0-262-03384-8' }))).toEqual({
      category: 'BOOKS',
      isbn: '9780262033848',
      courseCode: null,
    });
    expect(priceGuideAsk(fields({ ...book, courseCode: 'cse 331' }))).toMatchObject({ courseCode: 'CSE331' });
    // Half-typed: the name still gives a guide, and the server never sees a bad ISBN.
    expect(priceGuideAsk(fields({ ...book, isbn: '978026' }))).toEqual({
      category: 'BOOKS',
      condition: null,
      query: 'Algorithms',
    });
  });
});

describe('the words of freshness and the guide', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('says how long a listing has left', () => {
    expect(expiryLabel(null, now)).toBeNull();
    expect(expiryLabel('2026-12-26T12:00:00.000Z', now)).toBe('Expires in 30 days');
    expect(expiryLabel('2026-11-29T11:00:00.000Z', now)).toBe('Expires in 3 days');
    expect(expiryLabel('2026-11-26T20:00:00.000Z', now)).toBe('Expires within a day');
    expect(expiryLabel('2026-11-26T12:00:00.000Z', now)).toBe('Expired');
  });

  it('shows one price when every sale was at it', () => {
    expect(priceGuideLine({ low: 20, high: 35 })).toBe('Sold on campus for $20–$35');
    expect(priceGuideLine({ low: 25, high: 25 })).toBe('Sold on campus for $25');
  });
});
