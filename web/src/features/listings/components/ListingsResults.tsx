import type { ReactNode } from 'react';
import type { Listing } from '@campus/contract';
import type { ListingsFeed } from '../hooks/useListingsFeed';
import { ListingGrid, ListingGridSkeleton } from './ListingGrid';
import { LoadMore } from './LoadMore';

export interface ListingsResultsProps {
  feed: ListingsFeed;
  /** Accessible name of the list ("Search results", "Books listings"). */
  label: string;
  /** Shown when there is nothing (also after a failed load: spec §8 shows the list empty). */
  empty: (failed: boolean) => ReactNode;
  headingLevel?: 2 | 3;
  renderActions?: (listing: Listing) => ReactNode;
  skeletonCount?: number;
}

/** A paged listing list with its loading, empty and "load more" states, announced politely. */
export function ListingsResults({
  feed,
  label,
  empty,
  headingLevel,
  renderActions,
  skeletonCount = 6,
}: ListingsResultsProps) {
  const count = feed.listings.length;
  let status: string;
  if (feed.isLoading) status = 'Loading listings…';
  else if (count === 0) status = 'No listings to show.';
  else
    status = `${count} ${count === 1 ? 'listing' : 'listings'} shown${feed.hasNextPage ? ', more available' : ''}.`;

  return (
    <div>
      <p role="status" className="sr-only">
        {status}
      </p>
      {feed.isLoading ? (
        <ListingGridSkeleton count={skeletonCount} />
      ) : count === 0 ? (
        empty(feed.isError)
      ) : (
        <>
          <ListingGrid
            listings={feed.listings}
            label={label}
            headingLevel={headingLevel}
            renderActions={renderActions}
            stale={feed.isRefreshing}
          />
          <LoadMore
            hasNextPage={feed.hasNextPage}
            isFetchingNextPage={feed.isFetchingNextPage}
            onLoadMore={feed.fetchNextPage}
            auto={!feed.nextPageFailed}
            endText={count > 8 ? "You've seen everything for now." : undefined}
          />
        </>
      )}
    </div>
  );
}
