import { describe, expect, it } from 'vitest';
import { parseNextLink } from '../../api/listings';
import { browseSource, rangeLabel, readBrowseParams } from './params';

describe('parseNextLink', () => {
  it('reads the rel="next" target', () => {
    expect(parseNextLink('</listings?limit=24&cursor=abc>; rel="next"')).toBe(
      '/listings?limit=24&cursor=abc',
    );
  });
  it('finds next among several links and relation types', () => {
    expect(parseNextLink('</a>; rel="prev", <https://x.test/b?c=1>; rel="last next"')).toBe(
      'https://x.test/b?c=1',
    );
    expect(parseNextLink('</a>; rel=next')).toBe('/a');
  });
  it('is null without a next link', () => {
    expect(parseNextLink(null)).toBeNull();
    expect(parseNextLink('</a>; rel="prev"')).toBeNull();
  });
});

describe('all-listings query string', () => {
  it('reads repeated, upper-cased categories and prices', () => {
    const p = readBrowseParams(
      new URLSearchParams(
        'query=%20bike%20&categories=books&categories=ELECTRONICS&categories=nope&priceMin=15&priceMax=50',
      ),
    );
    expect(p).toEqual({
      query: 'bike',
      categories: ['BOOKS', 'ELECTRONICS'],
      priceMin: 15,
      priceMax: 50,
      conditions: [],
      courseCode: '',
      free: false,
      sort: undefined,
    });
  });
  it('reads conditions in their order, a normalised course code and a known sort (features.md §B)', () => {
    const p = readBrowseParams(
      new URLSearchParams(
        'conditions=fair&conditions=NEW&conditions=mint&courseCode=cse%20232&sort=price_asc',
      ),
    );
    expect(p).toMatchObject({ conditions: ['NEW', 'FAIR'], courseCode: 'CSE232', sort: 'price_asc' });
    expect(readBrowseParams(new URLSearchParams('sort=cheapest&courseCode=232'))).toMatchObject({
      sort: undefined,
      courseCode: '',
    });
  });
  it('sends sort and the new filters, and never relevance on browse', () => {
    expect(browseSource(readBrowseParams(new URLSearchParams('sort=price_desc')))).toEqual({
      kind: 'filters',
      categories: [],
      sort: 'price_desc',
    });
    expect(browseSource(readBrowseParams(new URLSearchParams('sort=relevance')))).toEqual({ kind: 'all' });
    expect(
      browseSource(readBrowseParams(new URLSearchParams('query=calculus&conditions=GOOD&courseCode=MTH132'))),
    ).toEqual({
      kind: 'search',
      query: 'calculus',
      categories: [],
      conditions: ['GOOD'],
      courseCode: 'MTH132',
    });
  });
  it('chooses search, filters or all', () => {
    expect(browseSource(readBrowseParams(new URLSearchParams('query=lamp&priceMin=100')))).toEqual({
      kind: 'search',
      query: 'lamp',
      categories: [],
      priceMin: 100,
    });
    expect(browseSource(readBrowseParams(new URLSearchParams('categories=BOOKS')))).toEqual({
      kind: 'filters',
      categories: ['BOOKS'],
    });
    expect(browseSource(readBrowseParams(new URLSearchParams('priceMin=abc')))).toEqual({ kind: 'all' });
  });
  it('labels ranges', () => {
    expect(rangeLabel({ priceMin: 100 })).toBe('$100 & up');
    expect(rangeLabel({ priceMin: 0, priceMax: 15 })).toBe('$0 – $15');
  });
});
