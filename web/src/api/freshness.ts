import type { Category, Condition, Listing, PriceGuide } from '@campus/contract';
import { api } from './client';

/** Freshness and the price guide (features.md §H). */

/** POST /listing/{id}/renew: listed again for LISTING_DAYS from now; answers the listing. */
export function renewListing(id: number): Promise<Listing> {
  return api.post<Listing>(`/listing/${id}/renew`);
}

export interface PriceGuideAsk {
  category?: Category;
  condition?: Condition | null;
  isbn?: string | null;
  courseCode?: string | null;
  query?: string;
}

export const priceGuideKey = (ask: PriceGuideAsk) => ['price-guide', ask] as const;

/** GET /listings/price-guide: null when fewer than 3 deals match (204). */
export async function getPriceGuide(ask: PriceGuideAsk, signal?: AbortSignal): Promise<PriceGuide | null> {
  const data = await api.get<PriceGuide | undefined>('/listings/price-guide', {
    signal,
    query: {
      category: ask.category,
      condition: ask.condition ?? undefined,
      isbn: ask.isbn || undefined,
      courseCode: ask.courseCode || undefined,
      query: ask.query || undefined,
    },
  });
  return data ?? null;
}
