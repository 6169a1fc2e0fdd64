/** Price buckets in dollars (spec §9). `max: null` means "and above". */
export const PRICE_BUCKETS = [
  { id: '0-15', label: '$0 – $15', min: 0, max: 15 },
  { id: '15-50', label: '$15 – $50', min: 15, max: 50 },
  { id: '50-100', label: '$50 – $100', min: 50, max: 100 },
  { id: '100+', label: '$100 & up', min: 100, max: null },
] as const;

export type PriceBucket = (typeof PRICE_BUCKETS)[number];
export type PriceBucketId = PriceBucket['id'];

export interface PriceRange {
  priceMin?: number;
  priceMax?: number;
}

/**
 * Spec §9: the applied minimum is the lowest chosen lower bound, the maximum the highest chosen
 * upper bound; 100+ sends priceMin 100 and no maximum; none chosen drops both parameters.
 */
export function bucketsToRange(ids: readonly string[]): PriceRange {
  const chosen = PRICE_BUCKETS.filter((b) => ids.includes(b.id));
  if (chosen.length === 0) return {};
  const priceMin = Math.min(...chosen.map((b) => b.min));
  if (chosen.some((b) => b.max === null)) return { priceMin };
  const priceMax = Math.max(...chosen.map((b) => b.max ?? 0));
  return { priceMin, priceMax };
}

/** Inverse of bucketsToRange for restoring checkbox state from a URL. */
export function rangeToBuckets(range: PriceRange): PriceBucketId[] {
  if (range.priceMin === undefined && range.priceMax === undefined) return [];
  const lo = range.priceMin ?? 0;
  const hi = range.priceMax ?? Number.POSITIVE_INFINITY;
  return PRICE_BUCKETS.filter((b) => b.min >= lo && (b.max ?? Number.POSITIVE_INFINITY) <= hi).map(
    (b) => b.id,
  );
}
