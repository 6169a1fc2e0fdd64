import type { QueryClient } from '@tanstack/react-query';
import type { Listing } from '@campus/contract';
import { listingKeys, type ListingsPage } from '../../api/listings';
import type { ListingsInfiniteData } from './hooks/useListingsFeed';

/** Helpers to change one listing in every cached list and detail (optimistic updates). */

function isInfinite(data: unknown): data is ListingsInfiniteData {
  return typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages);
}

export function isListingData(data: unknown): data is Listing {
  return typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'number';
}

/** Applies `change` to one listing in every cached list and detail (returns null to remove it). */
export function patchListingEverywhere(
  client: QueryClient,
  id: number,
  change: (listing: Listing) => Listing | null,
): void {
  client.setQueriesData<unknown>({ queryKey: listingKeys.all }, (data: unknown) => {
    if (isInfinite(data)) {
      let touched = false;
      const pages: ListingsPage[] = data.pages.map((page) => {
        if (!page.items.some((l) => l.id === id)) return page;
        touched = true;
        const items: Listing[] = [];
        for (const item of page.items) {
          if (item.id !== id) items.push(item);
          else {
            const next = change(item);
            if (next) items.push(next);
          }
        }
        return { ...page, items };
      });
      return touched ? { ...data, pages } : data;
    }
    if (isListingData(data) && data.id === id) return change(data) ?? data;
    return data;
  });
}
