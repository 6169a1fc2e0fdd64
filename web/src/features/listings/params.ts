import { bucketsToRange, isCategory, type Category, type PriceRange } from '@campus/contract';
import type { ListingsSource } from '../../api/listings';

/** Query-string state of /all_listings (spec §2): query, categories (repeated), priceMin, priceMax. */
export interface BrowseParams extends PriceRange {
  query: string;
  categories: Category[];
}

function readPrice(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function readBrowseParams(params: URLSearchParams): BrowseParams {
  const categories: Category[] = [];
  for (const raw of params.getAll('categories')) {
    for (const part of raw.split(',')) {
      const c = part.trim().toUpperCase();
      if (isCategory(c) && !categories.includes(c)) categories.push(c);
    }
  }
  let priceMin = readPrice(params.get('priceMin'));
  let priceMax = readPrice(params.get('priceMax'));
  if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax) {
    [priceMin, priceMax] = [priceMax, priceMin];
  }
  return { query: (params.get('query') ?? '').trim(), categories, priceMin, priceMax };
}

/** With a query: search; with only filters: filters; otherwise every listing. */
export function browseSource(p: BrowseParams): ListingsSource {
  const price: PriceRange = {};
  if (p.priceMin !== undefined) price.priceMin = p.priceMin;
  if (p.priceMax !== undefined) price.priceMax = p.priceMax;
  if (p.query) return { kind: 'search', query: p.query, categories: p.categories, ...price };
  if (p.categories.length > 0 || p.priceMin !== undefined || p.priceMax !== undefined) {
    return { kind: 'filters', categories: p.categories, ...price };
  }
  return { kind: 'all' };
}

/** Writes a price range into the params (dropping both when empty). */
export function writePrice(params: URLSearchParams, range: PriceRange): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('priceMin');
  next.delete('priceMax');
  if (range.priceMin !== undefined) next.set('priceMin', String(range.priceMin));
  if (range.priceMax !== undefined) next.set('priceMax', String(range.priceMax));
  return next;
}

/** The bucket whose range is exactly the given one (single-choice price filter). */
export function sameRange(a: PriceRange, b: PriceRange): boolean {
  return a.priceMin === b.priceMin && a.priceMax === b.priceMax;
}

export function rangeOf(id: string): PriceRange {
  return bucketsToRange([id]);
}

/** "$10 – $40", "$100 & up", "up to $15". */
export function rangeLabel(range: PriceRange): string {
  const { priceMin, priceMax } = range;
  if (priceMin !== undefined && priceMax !== undefined) return `$${priceMin} – $${priceMax}`;
  if (priceMin !== undefined) return `$${priceMin} & up`;
  if (priceMax !== undefined) return `Up to $${priceMax}`;
  return 'Any price';
}
