import { FRESHNESS_LIMITS, expiryLabel, type Listing } from '@campus/contract';
import { Button } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { RetryIcon } from '../../ui/icons';
import { useTimeBasis } from '../../ui/timeBasis';

const DAY_MS = 86_400_000;

/**
 * The seller's view of a listing's listed period (features.md §H): "Expires in N days", amber in
 * the last days with "Renew", or "Expired" with "Renew" as the one thing to do. Nothing for a sold
 * listing, or for anyone but the seller (only they get `expired`).
 */
export function ListingFreshness({
  listing,
  onRenew,
  busy,
  className,
  titled = true,
}: {
  listing: Listing;
  onRenew: (listing: Listing) => void;
  busy: boolean;
  className?: string;
  /** The listing's title element (`listing-{id}-title`, on cards) names what "Renew" renews. */
  titled?: boolean;
}) {
  const { now } = useTimeBasis();
  if (listing.expired === undefined || listing.isSold || listing.expiresAt === null) return null;
  const expired = listing.expired || Date.parse(listing.expiresAt) <= now;
  const soon =
    !expired && Date.parse(listing.expiresAt) - now <= FRESHNESS_LIMITS.expiringNoticeDays * DAY_MS;
  const label = expired
    ? 'Expired: no longer in browse or search'
    : (expiryLabel(listing.expiresAt, now) ?? '');
  return (
    <div className={cx('flex w-full flex-wrap items-center gap-x-3 gap-y-2', className)}>
      <p
        className={cx(
          'text-sm font-medium',
          expired ? 'text-rose-800' : soon ? 'text-amber-900' : 'text-slate-600',
        )}
      >
        {label}
      </p>
      {(expired || soon) && (
        <Button
          size="sm"
          variant={expired ? 'primary' : 'secondary'}
          loading={busy}
          leadingIcon={<RetryIcon size={16} />}
          onClick={() => onRenew(listing)}
          aria-describedby={titled ? `listing-${listing.id}-title` : undefined}
        >
          Renew
        </Button>
      )}
    </div>
  );
}
