import { useId } from 'react';
import { MOVE_OUT_MESSAGES } from '@campus/contract';
import { ButtonLink } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { ArrowRightIcon } from '../../ui/icons';
import { ListingCard, ListingCardSkeleton } from '../listings/components/ListingCard';
import { useListingsFeed } from '../listings/hooks/useListingsFeed';

const SHELF_LIMIT = 8;
const RAIL =
  '-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto overscroll-x-contain px-4 pb-3 sm:-mx-6 sm:scroll-px-6 sm:px-6 lg:mx-0 lg:grid lg:grid-cols-4 lg:gap-5 lg:overflow-visible lg:px-0 lg:pb-0';
const ITEM =
  'h-[360px] w-[72%] max-w-[17rem] shrink-0 snap-start md:w-[19rem] md:max-w-none lg:h-[400px] lg:w-auto';

/**
 * The "Moving out" shelf (features.md §H): listings of students leaving soon, soonest deadline
 * first, on the dashboard (leading during the campus's move-out season) and on a profile (that
 * student's only). Hidden when empty unless `showEmpty`.
 */
export function MovingOutShelf({
  sellerId,
  title = MOVE_OUT_MESSAGES.shelfTitle,
  description = MOVE_OUT_MESSAGES.shelfHint,
  showEmpty = false,
  headingLevel = 2,
}: {
  sellerId?: number;
  title?: string;
  description?: string;
  showEmpty?: boolean;
  headingLevel?: 2 | 3;
}) {
  const headingId = useId();
  const feed = useListingsFeed({ kind: 'movingOut', sellerId }, { limit: SHELF_LIMIT });
  const listings = feed.listings.slice(0, SHELF_LIMIT);
  if (!feed.isLoading && listings.length === 0 && !showEmpty) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-3xl border border-orange-200 bg-orange-50/70 p-4 sm:p-6"
    >
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <Heading id={headingId} className="text-xl font-bold tracking-tight text-slate-900 sm:text-2xl">
            {title}
          </Heading>
          <p className="mt-1 text-sm text-slate-700">{description}</p>
        </div>
        {sellerId === undefined && (
          <ButtonLink to="/moving_out" variant="ghost" size="sm">
            See all <ArrowRightIcon size={16} />
          </ButtonLink>
        )}
      </div>
      {feed.isLoading ? (
        <div className={RAIL} aria-hidden="true">
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className={ITEM}>
              <ListingCardSkeleton layout="tile" />
            </div>
          ))}
        </div>
      ) : listings.length === 0 ? (
        <p className="text-sm text-slate-700">{MOVE_OUT_MESSAGES.emptyShelf}</p>
      ) : (
        <ul aria-label={title} className={RAIL}>
          {listings.map((listing, i) => (
            <li key={listing.id} className={cx(ITEM, i >= 4 && 'lg:hidden')}>
              <ListingCard listing={listing} layout="tile" headingLevel={headingLevel === 2 ? 3 : 2} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
