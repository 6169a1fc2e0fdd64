import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { Listing } from '@campus/contract';
import { getProfile, trustKeys } from '../../../api/trust';
import { isServer } from '../../../ssr/request';
import { cx } from '../../../ui/cx';
import { ChevronRightIcon, ShieldIcon } from '../../../ui/icons';
import { useTimeBasis } from '../../../ui/timeBasis';
import { sellerSummary } from '../sellerSummary';
import { ProfileAvatar } from './ProfileAvatar';
import { Stars } from './Stars';

/** A grey bar standing in for a line of text while the profile loads (same line height: no shift). */
function LineSkeleton({ width }: { width: string }) {
  return (
    <span aria-hidden="true" className="flex h-5 items-center">
      <span className={cx('h-3 animate-pulse rounded bg-slate-200', width)} />
    </span>
  );
}

/**
 * The seller under the listing's photo (features.md §A "Profiles"): who they are, their rating,
 * completed deals and usual reply time, from GET /users/{id}/profile — where a buyer decides whether
 * to trust them. The whole card opens the profile. Its height is the same while loading, loaded or
 * failed, so nothing below it moves when the answer arrives.
 *
 * Fetched in the browser only: the server render of the page stays one round shorter and its HTML
 * free of the profile's listings; the card is below the photo (never the largest paint).
 */
export function SellerCard({ seller, className }: { seller: Listing['seller']; className?: string }) {
  const basis = useTimeBasis();
  const query = useQuery({
    queryKey: trustKeys.profile(seller.id),
    queryFn: ({ signal }) => getProfile(seller.id, signal),
    enabled: !isServer,
    staleTime: 60_000,
  });
  const profile = query.data;
  const summary = profile ? sellerSummary(profile, basis) : null;
  const name = `${profile?.firstName ?? seller.firstName} ${profile?.lastName ?? seller.lastName}`.trim();

  return (
    <section
      aria-labelledby="seller-card-name"
      aria-busy={query.isPending || undefined}
      className={cx(
        'relative flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-3 shadow-card',
        'focus-within:ring-2 focus-within:ring-brand-600 hover:border-slate-300 sm:p-4',
        className,
      )}
    >
      <ProfileAvatar
        id={seller.id}
        firstName={profile?.firstName ?? seller.firstName}
        lastName={profile?.lastName ?? seller.lastName}
        avatarUrl={profile?.avatarUrl ?? null}
        size="md"
      />
      <div className="min-w-0 flex-1 text-sm leading-5">
        <p className="flex min-w-0 items-center gap-1.5">
          <Link
            id="seller-card-name"
            to={`/u/${seller.id}`}
            // The link covers the card (one tap target, one name for screen readers).
            className="truncate text-base font-semibold text-slate-900 outline-none before:absolute before:inset-0 before:rounded-2xl before:content-['']"
          >
            {name}
          </Link>
          <ShieldIcon size={15} className="shrink-0 text-brand-700" aria-hidden="true" />
          <span className="sr-only">Verified student</span>
        </p>
        {summary ? (
          <>
            <p className="flex min-w-0 flex-wrap items-center gap-x-1.5 text-slate-700">
              {summary.stars !== null && <Stars value={summary.stars} size={14} />}
              <span className={cx(summary.stars !== null && 'font-semibold text-slate-900')}>
                {summary.rating}
              </span>
              {summary.deals && (
                <>
                  <span aria-hidden="true" className="text-slate-400">
                    ·
                  </span>
                  <span>{summary.deals}</span>
                </>
              )}
            </p>
            <p className="truncate text-slate-600">{summary.reply}</p>
          </>
        ) : query.isError ? (
          <>
            <p className="text-slate-700">Rating could not be loaded</p>
            <p className="text-slate-600">Open the profile to see their reviews</p>
          </>
        ) : (
          <>
            <span className="sr-only">Loading the seller&apos;s rating</span>
            <LineSkeleton width="w-40" />
            <LineSkeleton width="w-28" />
          </>
        )}
      </div>
      <ChevronRightIcon size={20} aria-hidden="true" className="shrink-0 text-slate-400" />
    </section>
  );
}
