import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CATEGORY_LABELS, formatDollars, type Listing } from '@campus/contract';
import { useMyUserId } from '../../../session/useCurrentUser';
import { cx } from '../../../ui/cx';
import { HeartIcon } from '../../../ui/icons';
import { listedAgo } from '../format';
import type { SingleListingState } from '../navigation';
import { ConditionChip } from './ConditionChip';
import { ListingImage } from './ListingImage';
import { LIST_ROW_SIZES, RAIL_TILE_SIZES } from '../photoLayout';
import { SaveButton } from './SaveButton';
import { StatusBadge } from './SoldBadge';
import { useTimeBasis } from '../../../ui/timeBasis';
import { SeasonBadge } from '../../moving-out/SeasonBadge';

export interface ListingCardProps {
  listing: Listing;
  /**
   * `responsive`: a row (thumbnail left) on phones, a vertical card from md up (spec §2 layouts).
   * `tile`: always vertical and filling its parent's height (the dashboard rail).
   */
  layout?: 'responsive' | 'tile';
  headingLevel?: 2 | 3;
  /** Extra controls under the card body (owner actions); they sit above the card-wide link. */
  actions?: ReactNode;
  /** Load the photo eagerly with high priority (the first cards, likely the LCP element). */
  priority?: boolean;
}

/**
 * A listing card: photo (fixed aspect ratio, lazy), price, name, category, Sold badge. The whole
 * card opens /single_listing/{id} with the listing as navigation state (spec §2).
 */
export function ListingCard({
  listing,
  layout = 'responsive',
  headingLevel = 3,
  actions,
  priority = false,
}: ListingCardProps) {
  const basis = useTimeBasis();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const state: SingleListingState = { listing };
  const tile = layout === 'tile';
  const ago = listedAgo(listing.createdAt, basis);
  const userId = useMyUserId();
  // Students save others' listings; the seller sees how many saved theirs instead.
  const own = userId !== null && listing.seller.id === userId;
  return (
    <article
      className={cx(
        'group relative flex overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-card transition hover:border-brand-300 hover:shadow-lift',
        tile ? 'h-full flex-col' : 'flex-row md:h-full md:flex-col',
        listing.isSold && 'bg-slate-50',
      )}
    >
      <ListingImage
        src={listing.thumbnailUrl ?? listing.imageUrl}
        variants={listing.imageVariants}
        sizes={tile ? RAIL_TILE_SIZES : LIST_ROW_SIZES}
        alt={listing.name}
        category={listing.category}
        className={cx(
          tile ? 'min-h-0 w-full flex-1' : 'aspect-square w-28 shrink-0 sm:w-36 md:aspect-[4/3] md:w-full',
          listing.isSold && 'opacity-70 grayscale-[40%]',
        )}
        iconSize={tile ? 40 : 30}
        compactPlaceholder={!tile}
        priority={priority}
      />
      <StatusBadge listing={listing} className="absolute top-2 left-2 z-[1]" />
      {userId !== null && !own && <SaveButton listing={listing} className="absolute top-2 right-2 z-[3]" />}
      {/* On a phone row the heart sits in the text's top-right corner: keep the text clear of it. */}
      <div
        className={cx(
          'flex min-w-0 flex-col p-3 sm:p-4',
          tile ? 'shrink-0' : 'flex-1',
          !tile && userId !== null && !own && 'max-md:pr-14',
        )}
      >
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          {listing.free ? (
            <p className="text-lg font-bold text-emerald-800">Free</p>
          ) : (
            <p className="text-lg font-bold text-brand-800 tabular-nums">{formatDollars(listing.price)}</p>
          )}
          <ConditionChip condition={listing.condition} />
          {own && listing.saveCount !== undefined && listing.saveCount > 0 && (
            <span className="inline-flex items-center gap-1 text-xs font-semibold text-rose-700">
              <HeartIcon filled size={14} />
              {listing.saveCount} saved
            </span>
          )}
        </div>
        <Heading
          id={`listing-${listing.id}-title`}
          className={cx(
            'mt-0.5 line-clamp-2 leading-snug font-semibold text-slate-900',
            tile && 'min-h-[2lh]',
          )}
        >
          <Link
            to={`/single_listing/${listing.id}`}
            state={state}
            className="after:absolute after:inset-0 after:z-[2] after:rounded-2xl after:content-[''] hover:text-brand-800 focus-visible:outline-none focus-visible:after:outline-3 focus-visible:after:-outline-offset-3 focus-visible:after:outline-brand-500"
          >
            {listing.name}
          </Link>
        </Heading>
        <p className="mt-1 truncate text-sm text-slate-600">
          {CATEGORY_LABELS[listing.category] ?? listing.category}
          {ago && (
            <>
              <span aria-hidden="true"> · </span>
              <span className="sr-only">, listed </span>
              {ago}
            </>
          )}
        </p>
        <SeasonBadge listing={listing} className="mt-2 self-start" />
        {actions && <div className="relative z-[3] mt-auto flex flex-wrap gap-2 pt-3">{actions}</div>}
      </div>
    </article>
  );
}

/** Placeholder of a card while the first page loads (same box, so nothing jumps). */
export function ListingCardSkeleton({ layout = 'responsive' }: { layout?: 'responsive' | 'tile' }) {
  const tile = layout === 'tile';
  return (
    <div
      aria-hidden="true"
      className={cx(
        'flex animate-pulse overflow-hidden rounded-2xl border border-slate-200 bg-white',
        tile ? 'h-full flex-col' : 'flex-row md:h-full md:flex-col',
      )}
    >
      <div
        className={cx(
          'bg-slate-200/80',
          tile ? 'min-h-0 w-full flex-1' : 'aspect-square w-28 shrink-0 sm:w-36 md:aspect-[4/3] md:w-full',
        )}
      />
      <div className="flex flex-1 flex-col gap-2 p-3 sm:p-4">
        <div className="h-5 w-16 rounded bg-slate-200" />
        <div className="h-4 w-4/5 rounded bg-slate-200" />
        <div className="h-3.5 w-2/5 rounded bg-slate-100" />
      </div>
    </div>
  );
}
