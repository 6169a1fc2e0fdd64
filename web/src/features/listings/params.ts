import {
  bucketsToRange,
  CONDITIONS,
  isCategory,
  isCondition,
  isSort,
  normalizeCourseCode,
  PRICE_BUCKETS,
  rangeToBuckets,
  type Category,
  type Condition,
  type Listing,
  type PriceBucketId,
  type PriceRange,
  type Sort,
} from '@campus/contract';
import type { ListingsSource, SellingFilters } from '../../api/listings';

/**
 * Query-string state of /all_listings (spec §2): query, categories (repeated), priceMin, priceMax;
 * features.md §B adds conditions (repeated), courseCode and sort.
 */
export interface BrowseParams extends PriceRange {
  query: string;
  categories: Category[];
  conditions: Condition[];
  courseCode: string;
  /** Absent: the default order (best match for a search, newest for browse). */
  sort: Sort | undefined;
  /** features.md §H: free items only (`free=true`). */
  free: boolean;
}

/** Repeated or comma-separated values of one key, upper-cased, known ones only, once each. */
function readList<T extends string>(params: URLSearchParams, key: string, known: (v: string) => v is T): T[] {
  const out: T[] = [];
  for (const raw of params.getAll(key)) {
    for (const part of raw.split(',')) {
      const v = part.trim().toUpperCase();
      if (known(v) && !out.includes(v)) out.push(v);
    }
  }
  return out;
}

function readPrice(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function readBrowseParams(params: URLSearchParams): BrowseParams {
  const categories = readList(params, 'categories', isCategory);
  const conditions = readList(params, 'conditions', isCondition).sort(
    (a, b) => CONDITIONS.indexOf(a) - CONDITIONS.indexOf(b),
  );
  const rawSort = params.get('sort') ?? '';
  const sort = isSort(rawSort) ? rawSort : undefined;
  const courseCode = normalizeCourseCode(params.get('courseCode') ?? '') ?? '';
  let priceMin = readPrice(params.get('priceMin'));
  let priceMax = readPrice(params.get('priceMax'));
  if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax) {
    [priceMin, priceMax] = [priceMax, priceMin];
  }
  return {
    query: (params.get('query') ?? '').trim(),
    categories,
    priceMin,
    priceMax,
    conditions,
    courseCode,
    sort,
    free: params.get('free') === 'true',
  };
}

/** With a query: search; with filters or an order: filters; otherwise every listing. */
export function browseSource(p: BrowseParams): ListingsSource {
  const rest: Omit<SellingFilters, 'categories'> = {};
  if (p.priceMin !== undefined) rest.priceMin = p.priceMin;
  if (p.priceMax !== undefined) rest.priceMax = p.priceMax;
  if (p.conditions.length > 0) rest.conditions = p.conditions;
  if (p.courseCode) rest.courseCode = p.courseCode;
  if (p.free) rest.free = true;
  // "relevance" on browse is newest (the server treats it so): send it only with a query.
  if (p.sort && (p.query || p.sort !== 'relevance')) rest.sort = p.sort;
  if (p.query) return { kind: 'search', query: p.query, categories: p.categories, ...rest };
  if (p.categories.length > 0 || Object.keys(rest).length > 0) {
    return { kind: 'filters', categories: p.categories, ...rest };
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

/**
 * The category page's price choice: several bands (`?bands=0-15&bands=100%2B`,
 * with priceMin/priceMax spanning them for the server), or a plain priceMin/priceMax range from a
 * shared link that matches no set of bands, honoured as it is.
 */
export interface PriceChoice {
  bands: PriceBucketId[];
  /** A range from the URL that is not a set of bands (null when the bands say it all). */
  custom: PriceRange | null;
}

const BAND_IDS: readonly string[] = PRICE_BUCKETS.map((b) => b.id);

export function readPriceChoice(params: URLSearchParams): PriceChoice {
  const bands = params
    .getAll('bands')
    .flatMap((v) => v.split(','))
    .filter((id): id is PriceBucketId => BAND_IDS.includes(id));
  if (bands.length > 0) return { bands: [...new Set(bands)], custom: null };
  const { priceMin, priceMax } = readBrowseParams(params);
  if (priceMin === undefined && priceMax === undefined) return { bands: [], custom: null };
  const range = { priceMin, priceMax };
  const fromRange = rangeToBuckets(range);
  if (fromRange.length > 0 && sameRange(bucketsToRange(fromRange), range)) {
    return { bands: fromRange, custom: null };
  }
  return { bands: [], custom: range };
}

/** The range the server is asked for: the span of the bands, or the custom range. */
export function choiceRange(choice: PriceChoice): PriceRange {
  return choice.custom ?? bucketsToRange(choice.bands);
}

/** Writes the choice into the URL: bands only when they are not one contiguous span. */
export function writePriceChoice(params: URLSearchParams, choice: PriceChoice): URLSearchParams {
  const next = writePrice(params, choiceRange(choice));
  next.delete('bands');
  // Bands with a gap ($0–$15 + $100 & up) cannot be told by the span alone.
  const contiguous = rangeToBuckets(bucketsToRange(choice.bands)).length === choice.bands.length;
  if (!choice.custom && !contiguous) {
    for (const id of PRICE_BUCKETS.map((b) => b.id)) if (choice.bands.includes(id)) next.append('bands', id);
  }
  return next;
}

/** Keeps only listings whose price falls in one of the chosen bands (both ends inclusive). */
export function inBands(listing: Listing, bands: readonly PriceBucketId[]): boolean {
  if (bands.length === 0) return true;
  return PRICE_BUCKETS.some(
    (b) => bands.includes(b.id) && listing.price >= b.min && (b.max === null || listing.price <= b.max),
  );
}
