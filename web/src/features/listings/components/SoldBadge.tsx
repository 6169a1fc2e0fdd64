import { DEALS_MESSAGES } from '@campus/contract';
import { cx } from '../../../ui/cx';

const BADGE = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-bold tracking-wide uppercase';

/** "Sold" ribbon on a card or the detail view. */
export function SoldBadge({ className }: { className?: string }) {
  return <span className={cx(BADGE, 'bg-slate-900/85 text-white', className)}>Sold</span>;
}

/**
 * "Reserved" (features.md §A): an accepted offer holds the listing for one buyer; it stays in
 * browse and search with this badge. Dark text on amber keeps the contrast over any photo.
 */
export function ReservedBadge({ className }: { className?: string }) {
  return (
    <span className={cx(BADGE, 'bg-accent-400 text-slate-950 ring-1 ring-slate-900/10', className)}>
      {DEALS_MESSAGES.reserved}
    </span>
  );
}

/** "Expired" (features.md §H): only its seller sees it, in My Listings and on its page. */
export function ExpiredBadge({ className }: { className?: string }) {
  return <span className={cx(BADGE, 'bg-rose-700 text-white', className)}>Expired</span>;
}

/** "Free" (features.md §H): a giveaway that takes claims instead of offers. */
export function FreeBadge({ className }: { className?: string }) {
  return <span className={cx(BADGE, 'bg-emerald-700 text-white ring-1 ring-white/40', className)}>Free</span>;
}

/** The badge of a listing's status, if any (available priced listings have none). */
export function StatusBadge({
  listing,
  className,
}: {
  listing: { isSold: boolean; status?: string; expired?: boolean; free?: boolean };
  className?: string;
}) {
  if (listing.isSold) return <SoldBadge className={className} />;
  if (listing.expired) return <ExpiredBadge className={className} />;
  if (listing.status === 'RESERVED') return <ReservedBadge className={className} />;
  if (listing.free) return <FreeBadge className={className} />;
  return null;
}
