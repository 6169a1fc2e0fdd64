import type { ReactNode } from 'react';
import type { Listing } from '@campus/contract';
import { cx } from '../../../ui/cx';
import { ListingCard, ListingCardSkeleton } from './ListingCard';

/**
 * Listing layouts of spec §2: a list on phones, 3 columns on medium screens, an auto-fill grid
 * (minimum 250 px per card) on large screens.
 */
/** Cards whose photo loads eagerly: the ones above the fold on a phone (one of them is the LCP). */
const PRIORITY_CARDS = 2;

export const LISTING_GRID_CLASSES =
  'flex flex-col gap-3 md:grid md:grid-cols-3 md:gap-4 lg:grid-cols-[repeat(auto-fill,minmax(250px,1fr))] lg:gap-5';

export interface ListingGridProps {
  listings: readonly Listing[];
  headingLevel?: 2 | 3;
  renderActions?: (listing: Listing) => ReactNode;
  /** Accessible name of the list. */
  label: string;
  className?: string;
  /** Dims the list while new results for changed filters load. */
  stale?: boolean;
}

export function ListingGrid({
  listings,
  headingLevel,
  renderActions,
  label,
  className,
  stale,
}: ListingGridProps) {
  return (
    <ul
      aria-label={label}
      aria-busy={stale || undefined}
      className={cx(LISTING_GRID_CLASSES, stale && 'opacity-60 transition-opacity', className)}
    >
      {listings.map((listing, i) => (
        <li key={listing.id} className="min-w-0">
          <ListingCard
            listing={listing}
            headingLevel={headingLevel}
            actions={renderActions?.(listing)}
            priority={i < PRIORITY_CARDS}
          />
        </li>
      ))}
    </ul>
  );
}

export function ListingGridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <div className={LISTING_GRID_CLASSES}>
      {Array.from({ length: count }, (_, i) => (
        <ListingCardSkeleton key={i} />
      ))}
    </div>
  );
}
