import { MESSAGES } from '@campus/contract';
import { cx } from '../../../ui/cx';
import { ErrorState } from '../../../ui/ErrorState';
import { ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { TagIcon } from '../../../ui/icons';
import { useListingsFeed } from '../hooks/useListingsFeed';
import { ListingCard, ListingCardSkeleton } from './ListingCard';

const RAIL_LIMIT = 12;
/** On large screens the rail becomes a 4 × 2 grid; items past the 8th are left to the rail. */
const GRID_ITEMS = 8;

const RAIL_CLASSES =
  '-mx-4 flex h-[420px] snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto overscroll-x-contain px-4 pb-3 sm:-mx-6 sm:scroll-px-6 sm:px-6 md:h-[500px] lg:mx-0 lg:px-0 lg:grid lg:h-[560px] lg:grid-cols-4 lg:gap-5 lg:overflow-visible lg:pb-0';
const ITEM_CLASSES = 'h-full w-[78%] max-w-[19rem] shrink-0 snap-start md:w-[21rem] md:max-w-none lg:w-auto';

/**
 * Today's Latest Products (spec §2): GET /listings/recent as a horizontal rail on phones and
 * tablets and a grid on large screens. Heights are fixed (420/500/560 px), so nothing jumps.
 */
export function LatestRail() {
  const feed = useListingsFeed({ kind: 'recent' }, { limit: RAIL_LIMIT });
  const listings = feed.listings.slice(0, RAIL_LIMIT);

  if (feed.isLoading) {
    return (
      <div className={cx(RAIL_CLASSES, 'lg:grid-rows-2')} aria-hidden="true">
        {Array.from({ length: GRID_ITEMS }, (_, i) => (
          <div key={i} className={cx(ITEM_CLASSES, i >= 4 && 'max-lg:hidden')}>
            <ListingCardSkeleton layout="tile" />
          </div>
        ))}
        <p role="status" className="sr-only">
          Loading the latest listings…
        </p>
      </div>
    );
  }

  if (listings.length === 0 && feed.isError) {
    return <ErrorState title={MESSAGES.latestLoadFailed} onRetry={feed.retry} />;
  }

  if (listings.length === 0) {
    return (
      <EmptyState
        icon={<TagIcon />}
        headingLevel={3}
        title="The newest listings show up here."
        description="Nothing new yet today. Be the first to post something!"
        action={<ButtonLink to="/addlisting">+ Sell an item</ButtonLink>}
      />
    );
  }

  return (
    <ul
      aria-label="Latest listings"
      className={cx(RAIL_CLASSES, listings.length > 4 ? 'lg:grid-rows-2' : 'lg:grid-rows-1')}
    >
      {listings.map((listing, i) => (
        <li key={listing.id} className={cx(ITEM_CLASSES, i >= GRID_ITEMS && 'lg:hidden')}>
          <ListingCard listing={listing} layout="tile" priority={i < 2} />
        </li>
      ))}
    </ul>
  );
}
