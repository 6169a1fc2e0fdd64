import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { LIMITS, type Listing } from '@campus/contract';
import {
  fetchListingsPage,
  listingKeys,
  type ListingsPage,
  type ListingsSource,
} from '../../../api/listings';

export interface ListingsFeed {
  listings: Listing[];
  /** First page still loading (no data to show yet). */
  isLoading: boolean;
  /** The first page failed: the list is shown empty (spec §8) and the error logged. */
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** The last "load more" failed: stop loading by scrolling, keep the button to retry. */
  nextPageFailed: boolean;
  fetchNextPage: () => void;
  retry: () => void;
  /** A refetch of already shown data is running (e.g. after a filter change kept old results). */
  isRefreshing: boolean;
}

export type ListingsInfiniteData = InfiniteData<ListingsPage, string | null>;

/**
 * A paged listing list (useInfiniteQuery over the `Link: rel="next"` pages). `preloaded` (e.g.
 * navigation state `singleCatListings`) is shown at once and refreshed immediately.
 */
export function useListingsFeed(
  source: ListingsSource,
  options: { limit?: number; preloaded?: Listing[]; enabled?: boolean } = {},
): ListingsFeed {
  const limit = options.limit ?? LIMITS.pageDefault;
  const { preloaded } = options;
  const query = useInfiniteQuery({
    queryKey: listingKeys.list(source, limit),
    queryFn: ({ pageParam, signal }) => fetchListingsPage(source, pageParam, { limit, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: options.enabled ?? true,
    initialData: preloaded ? { pages: [{ items: preloaded, next: null }], pageParams: [null] } : undefined,
    // Preloaded data is only a head start: treat it as stale so it is refreshed at once.
    initialDataUpdatedAt: preloaded ? 0 : undefined,
    placeholderData: (previous) => previous,
  });

  useEffect(() => {
    if (query.error) console.error('Failed to load listings', query.error);
  }, [query.error]);

  const listings = useMemo(() => {
    if (query.isError && !query.data) return [];
    const seen = new Set<number>();
    const out: Listing[] = [];
    for (const page of query.data?.pages ?? []) {
      for (const item of page.items) {
        if (seen.has(item.id)) continue; // a listing may shift across pages while new ones arrive
        seen.add(item.id);
        out.push(item);
      }
    }
    return out;
  }, [query.data, query.isError]);

  return {
    listings,
    isLoading: query.isPending,
    isError: query.isError,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    nextPageFailed: query.isFetchNextPageError,
    fetchNextPage: () => {
      if (query.hasNextPage && !query.isFetching) void query.fetchNextPage();
    },
    retry: () => void query.refetch(),
    isRefreshing: query.isPlaceholderData,
  };
}
