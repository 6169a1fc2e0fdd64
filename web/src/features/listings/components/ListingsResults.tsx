import type { ReactNode } from 'react';
import type { Listing } from '@campus/contract';
import { MESSAGES } from '@campus/contract';
import { ErrorState } from '../../../ui/ErrorState';
import type { ListingsFeed } from '../hooks/useListingsFeed';
import { ListingGrid, ListingGridSkeleton } from './ListingGrid';
import { LoadMore } from './LoadMore';

export interface ListingsResultsProps {
  feed: ListingsFeed;
  /** Accessible name of the list ("Search results", "Books listings"). */
  label: string;
  /**
   * Shown only for a real empty result (`failed` is always false: a failed first load shows the
   * error and "Try again" instead; the argument stays for existing callers).
   */
  empty: (failed: boolean) => ReactNode;
  /** Title of the load-failure state. */
  errorText?: string;
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
  errorText = MESSAGES.listingsLoadFailed,
}: ListingsResultsProps) {
  const count = feed.listings.length;
  let status: string;
  const failed = feed.isError && count === 0;
  if (feed.isLoading) status = 'Loading listings…';
  else if (failed) status = '';
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
      ) : failed ? (
        <ErrorState title={errorText} onRetry={feed.retry} />
      ) : count === 0 ? (
        empty(false)
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
