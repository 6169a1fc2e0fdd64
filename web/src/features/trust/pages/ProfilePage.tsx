import { useEffect, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { BUNDLE_LIMITS, BUNDLE_MESSAGES, TRUST_MESSAGES, type Profile, type Review } from '@campus/contract';
import { ApiError } from '../../../api/client';
import { getProfile, getReviews, trustKeys } from '../../../api/trust';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { EmptyState } from '../../../ui/EmptyState';
import { ErrorState } from '../../../ui/ErrorState';
import { ShieldIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { PageSpinner } from '../../../ui/Spinner';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { BundleToggle } from '../../deals/bundle/BundleToggle';
import { BundleTray } from '../../deals/bundle/BundleTray';
import { useBundlePicks } from '../../deals/bundle/useBundlePicks';
import { ListingGrid } from '../../listings/components/ListingGrid';
import { BlockButton } from '../../safety/BlockButton';
import { MovingOutShelf } from '../../moving-out/MovingOutShelf';
import { ReportButton } from '../../safety/ReportDialog';
import { EditProfile } from '../components/EditProfile';
import { ProfileAvatar } from '../components/ProfileAvatar';
import { Stars, formatStars } from '../components/Stars';
import { formatDate, formatMonth, formatReplyTime, tagLabel } from '../format';
import { useTimeBasis } from '../../../ui/timeBasis';

/** /u/:id — a student's public profile (features.md §A): who they are and whether to trust them. */
export default function ProfilePage() {
  const basis = useTimeBasis();
  const params = useParams();
  const id = /^\d{1,10}$/.test(params.id ?? '') ? Number(params.id) : null;
  const { userId } = useCurrentUser();
  const query = useQuery({
    queryKey: trustKeys.profile(id ?? 0),
    queryFn: ({ signal }) => getProfile(id ?? 0, signal),
    enabled: id !== null,
  });
  const profile = query.data;
  const own = profile !== undefined && profile.id === userId;
  useDocumentTitle(profile ? (own ? 'Your profile' : `${profile.firstName} ${profile.lastName}`) : 'Profile');

  if (id === null || (query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <PageContainer width="default">
        <EmptyState
          headingLevel={1}
          title="This student does not exist"
          description="Check the link and try again."
        />
      </PageContainer>
    );
  }
  if (query.isError)
    return (
      <PageContainer width="default">
        <ErrorState title="This profile could not be loaded" onRetry={() => void query.refetch()} />
      </PageContainer>
    );
  if (!profile) return <PageSpinner />;

  return (
    <PageContainer width="default" className="space-y-6">
      <Card as="section" padding="lg" aria-labelledby="profile-name">
        <div className="flex flex-col items-center gap-5 text-center sm:flex-row sm:items-start sm:text-left">
          <ProfileAvatar {...profile} />
          <div className="min-w-0 flex-1">
            <h1
              id="profile-name"
              className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl"
            >
              {profile.firstName} {profile.lastName}
            </h1>
            <p className="mt-1.5 flex flex-wrap items-center justify-center gap-x-3 gap-y-1 text-sm text-slate-600 sm:justify-start">
              <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2.5 py-0.5 font-semibold text-brand-800">
                <ShieldIcon size={15} /> Verified student
              </span>
              <span>Member since {formatMonth(profile.memberSince, basis)}</span>
            </p>
            {profile.bio ? (
              <p className="mt-3 break-words whitespace-pre-line text-slate-800">{profile.bio}</p>
            ) : own ? (
              <p className="mt-3 text-slate-600">
                Add a short bio below so buyers and sellers know who they meet.
              </p>
            ) : null}
          </div>
        </div>
        <Stats profile={profile} />
        {!own && userId !== null && (
          // Safety tools where a student decides whom to trust (features.md §C).
          <div className="mt-5 flex flex-wrap items-center justify-end gap-4 border-t border-slate-100 pt-4">
            <ReportButton
              targetType="USER"
              targetId={profile.id}
              label="Report"
              ariaLabel={`Report ${profile.firstName} ${profile.lastName}`}
            />
            <BlockButton userId={profile.id} name={profile.firstName} />
          </div>
        )}
      </Card>

      {own && <EditProfile profile={profile} />}

      <ReviewsSection profile={profile} />

      <MovingOutShelf
        sellerId={profile.id}
        title={`${profile.firstName} is moving out`}
        description="These have to go soon: soonest first."
      />
      <ListingsSection profile={profile} own={own} myId={userId} />
    </PageContainer>
  );
}

/**
 * The seller's listings; a visitor can pick available ones into a bundle and make one offer for
 * them all (features.md §H).
 */
function ListingsSection({ profile, own, myId }: { profile: Profile; own: boolean; myId: number | null }) {
  const bundle = useBundlePicks(profile.id);
  const canBundle = !own && myId !== null;
  // A free item is claimed, never bundled (features.md §H).
  const available = profile.listings.filter((l) => l.status === 'AVAILABLE' && !l.free).map((l) => l.id);
  const { keepOnly } = bundle;
  const availableKey = available.join(',');
  useEffect(() => {
    // A picked listing that was reserved or sold meanwhile leaves the tray.
    keepOnly(availableKey ? availableKey.split(',').map(Number) : []);
  }, [availableKey, keepOnly]);
  return (
    <section aria-labelledby="listings-heading">
      <h2 id="listings-heading" className="mb-1 text-xl font-bold text-slate-900">
        {own ? 'Your listings for sale' : `For sale by ${profile.firstName}`}
      </h2>
      {canBundle && available.length >= BUNDLE_LIMITS.minListings && (
        <p className="mb-3 text-sm text-slate-600">{BUNDLE_MESSAGES.trayHint}</p>
      )}
      {profile.listings.length === 0 ? (
        <EmptyState title={TRUST_MESSAGES.noListings} headingLevel={3} />
      ) : (
        <ListingGrid
          listings={profile.listings}
          label={`Listings by ${profile.firstName}`}
          renderActions={
            canBundle && available.length >= BUNDLE_LIMITS.minListings
              ? (l) =>
                  l.status === 'AVAILABLE' && !l.free ? <BundleToggle listing={l} bundle={bundle} /> : null
              : undefined
          }
        />
      )}
      {canBundle && (
        <BundleTray
          bundle={bundle}
          listings={profile.listings}
          sellerFirstName={profile.firstName}
          myId={myId}
        />
      )}
    </section>
  );
}

function Stats({ profile }: { profile: Profile }) {
  return (
    <dl className="mt-6 grid grid-cols-2 gap-3 border-t border-slate-100 pt-5 sm:grid-cols-4">
      <Stat label="Rating">
        {profile.ratingAverage === null ? (
          <span className="text-base font-semibold text-slate-600">No ratings yet</span>
        ) : (
          <span className="flex flex-col gap-0.5">
            <span className="flex items-center gap-1.5">
              <span className="text-2xl font-bold text-slate-900 tabular-nums">
                {formatStars(profile.ratingAverage)}
              </span>
              <Stars value={profile.ratingAverage} size={16} />
            </span>
            <span className="text-xs text-slate-600">
              from {profile.ratingCount} {profile.ratingCount === 1 ? 'student' : 'students'}
            </span>
          </span>
        )}
      </Stat>
      <Stat label="Deals">
        <span className="text-2xl font-bold text-slate-900 tabular-nums">{profile.dealsCount}</span>
      </Stat>
      <Stat label="Reliability">
        {profile.reliability === null ? (
          <span className="text-sm font-medium text-slate-600">{TRUST_MESSAGES.reliabilityPending}</span>
        ) : (
          <span className="flex flex-col gap-0.5">
            <span className="text-2xl font-bold text-slate-900 tabular-nums">
              {Math.round(profile.reliability * 100)}%
            </span>
            <span className="text-xs text-slate-600">of meet-ups kept</span>
          </span>
        )}
      </Stat>
      <Stat label="Usually replies">
        {profile.medianReplyMinutes === null ? (
          <span className="text-sm font-medium text-slate-600">Not enough chats yet</span>
        ) : (
          <span className="text-lg font-bold text-slate-900">
            {formatReplyTime(profile.medianReplyMinutes)}
          </span>
        )}
      </Stat>
    </dl>
  );
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-xl bg-slate-50 px-3 py-3">
      <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className="mt-1">{children}</dd>
    </div>
  );
}

function ReviewsSection({ profile }: { profile: Profile }) {
  const query = useInfiniteQuery({
    queryKey: trustKeys.reviews(profile.id),
    queryFn: ({ pageParam, signal }) => getReviews(profile.id, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const reviews = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="reviews-heading">
      <h2 id="reviews-heading" className="mb-3 text-xl font-bold text-slate-900">
        Reviews
      </h2>
      {query.isPending ? (
        <PageSpinner />
      ) : query.isError ? (
        <ErrorState title="The reviews could not be loaded" onRetry={() => void query.refetch()} />
      ) : reviews.length === 0 ? (
        <EmptyState title="No reviews yet" description={TRUST_MESSAGES.noReviews} headingLevel={3} />
      ) : (
        <>
          <ul aria-label={`Reviews of ${profile.firstName}`} className="space-y-3">
            {reviews.map((r) => (
              <li key={r.id}>
                <ReviewCard review={r} />
              </li>
            ))}
          </ul>
          {query.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                loading={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                Show more reviews
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function ReviewCard({ review }: { review: Review }) {
  const basis = useTimeBasis();
  return (
    <Card as="article" padding="sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Stars value={review.stars} />
        <time dateTime={review.createdAt} className="text-xs text-slate-600">
          {formatDate(review.createdAt, basis)}
        </time>
      </div>
      {review.text && <p className="mt-2 break-words whitespace-pre-line text-slate-800">{review.text}</p>}
      {review.tags.length > 0 && (
        <ul aria-label="Tags" className="mt-2 flex flex-wrap gap-1.5">
          {review.tags.map((t) => (
            <li key={t} className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-800">
              {tagLabel(t)}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-sm text-slate-600">
        <Link to={`/u/${review.author.id}`} className="font-medium text-brand-700 hover:underline">
          {review.author.firstName} {review.author.lastName}
        </Link>{' '}
        · {review.listingName}
      </p>
    </Card>
  );
}
