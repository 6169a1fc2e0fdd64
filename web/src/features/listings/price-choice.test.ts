import { describe, expect, it } from 'vitest';
import type { Listing } from '@campus/contract';
import { choiceRange, inBands, readPriceChoice, writePriceChoice } from './params';

const at = (price: number) => ({ price }) as Listing;

describe('category page price choice', () => {
  it('honours a priceMin/priceMax URL that is a set of bands', () => {
    const choice = readPriceChoice(new URLSearchParams('priceMin=15&priceMax=100'));
    expect(choice).toEqual({ bands: ['15-50', '50-100'], custom: null });
  });
  it('honours a priceMin/priceMax URL that matches no band as a custom range', () => {
    const choice = readPriceChoice(new URLSearchParams('priceMin=10&priceMax=40'));
    expect(choice).toEqual({ bands: [], custom: { priceMin: 10, priceMax: 40 } });
    expect(choiceRange(choice)).toEqual({ priceMin: 10, priceMax: 40 });
  });
  it('keeps bands with a gap in the URL and filters by them, not by their span', () => {
    const choice = { bands: ['0-15', '100+'] as const, custom: null };
    const url = writePriceChoice(new URLSearchParams('categories=BOOKS'), {
      bands: [...choice.bands],
      custom: null,
    });
    expect(url.toString()).toBe('categories=BOOKS&priceMin=0&bands=0-15&bands=100%2B');
    expect(readPriceChoice(url).bands).toEqual(['0-15', '100+']);
    expect(inBands(at(9), ['0-15', '100+'])).toBe(true);
    expect(inBands(at(45), ['0-15', '100+'])).toBe(false);
    expect(inBands(at(250), ['0-15', '100+'])).toBe(true);
  });
  it('writes contiguous bands as a plain range', () => {
    const url = writePriceChoice(new URLSearchParams(), { bands: ['0-15', '15-50'], custom: null });
    expect(url.toString()).toBe('priceMin=0&priceMax=50');
  });
});
