import { Link, useLocation, useParams } from 'react-router';
import { CATEGORY_LABELS, formatDollars, isDbId, MESSAGES } from '@campus/contract';
import { ApiError } from '../../../api/client';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { Button, ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { ArrowLeftIcon, TagIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { Spinner } from '../../../ui/Spinner';
import { useBack } from '../../../ui/useBack';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { ListingPriceGuide } from '../../freshness/PriceGuideHint';
import { ConditionChip } from '../components/ConditionChip';
import { OwnerPanel } from '../components/OwnerPanel';
import { PhotoGallery } from '../components/PhotoGallery';
import { SaveButton } from '../components/SaveButton';
import { ShareButton } from '../components/ShareButton';
import { StatusBadge } from '../components/SoldBadge';
import { SeasonBadge } from '../../moving-out/SeasonBadge';
import { VisitorPanel } from '../components/VisitorPanel';
import { ClaimPanel } from '../../claims/ClaimPanel';
import { actionBarState, ListingActionBar } from '../components/ListingActionBar';
import { SellerCard } from '../../trust/components/SellerCard';
import { listedAgo, sellerShortName } from '../format';
import { useListing } from '../hooks/useListing';
import { listingFromState, type CategoryPageState } from '../navigation';
import { useTimeBasis } from '../../../ui/timeBasis';

/** A listing id from the path: digits only, and an id the database can hold. */
function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return isDbId(id) ? id : null;
}

function NotFound() {
  const back = useBack();
  useDocumentTitle(MESSAGES.listingNotFoundTitle);
  return (
    <PageContainer width="default">
      <EmptyState
        icon={<TagIcon />}
        title={MESSAGES.listingNotFoundTitle}
        headingLevel={1}
        description={`${MESSAGES.listingNotFound}.`}
        action={
          <div className="flex flex-wrap justify-center gap-2">
            <Button variant="secondary" onClick={back} leadingIcon={<ArrowLeftIcon size={18} />}>
              Back
            </Button>
            <ButtonLink to="/all_listings">Browse all listings</ButtonLink>
          </div>
        }
      />
    </PageContainer>
  );
}

/**
 * /single_listing/:id (spec §2): the listing from navigation state at once, refreshed from
 * GET /listing/{id}. Owner view: 'This is your listing', link to /personalListings, sold and delete.
 * Visitor view: 'Chat with the seller' and the two info blocks.
 */
export default function SingleListingPage() {
  const basis = useTimeBasis();
  const { id: rawId } = useParams();
  const location = useLocation();
  const id = parseId(rawId);
  const initial = id === null ? undefined : listingFromState(location.state, id);
  const query = useListing(id, initial);
  const { userId } = useCurrentUser();
  const listing = query.data;
  useDocumentTitle(listing?.name ?? 'Listing');

  const notFound =
    id === null ||
    (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400));
  if (notFound) return <NotFound />;

  if (!listing) {
    if (query.isError) {
      return (
        <PageContainer width="default">
          <EmptyState
            icon={<TagIcon />}
            title="We could not load this listing."
            headingLevel={1}
            description="Check your connection and try again."
            action={
              <Button variant="secondary" onClick={() => void query.refetch()}>
                Try again
              </Button>
            }
          />
        </PageContainer>
      );
    }
    return (
      <PageContainer>
        <div
          role="status"
          className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-brand-700"
        >
          <Spinner size="lg" label={null} />
          <p className="text-lg font-semibold text-slate-700">Loading…</p>
        </div>
      </PageContainer>
    );
  }

  const categoryLabel = CATEGORY_LABELS[listing.category] ?? listing.category;
  const isOwner = userId !== null && listing.seller.id === userId;
  const ago = listedAgo(listing.createdAt, basis);
  const catState: CategoryPageState = { categoryPassed: listing.category };
  // On phones the action bar is fixed to the bottom: room below the page's end so it hides nothing.
  const hasBar = userId !== null && actionBarState(listing, userId) !== null;

  return (
    <PageContainer className={hasBar ? 'pb-32 sm:pb-32 lg:pb-8' : undefined}>
      <nav aria-label="Breadcrumb" className="mb-5">
        <ol className="flex min-w-0 items-center gap-2 text-sm text-slate-600">
          <li className="shrink-0">
            <Link
              to={`/cat_listing?categories=${listing.category}`}
              state={catState}
              className="rounded font-medium text-brand-700 hover:text-brand-800 hover:underline"
            >
              {categoryLabel}
            </Link>
          </li>
          <li aria-hidden="true" className="text-slate-400">
            /
          </li>
          <li aria-current="page" className="min-w-0 truncate text-slate-800">
            {listing.name}
          </li>
        </ol>
      </nav>

      {/* Desktop: the photo and the seller card under it on the left, the details beside both. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:grid-rows-[auto_1fr] lg:gap-x-10 lg:gap-y-4">
        <div className="relative min-w-0">
          <PhotoGallery listing={listing} />
          <StatusBadge listing={listing} className="absolute top-4 left-4 px-3 py-1 text-sm" />
        </div>

        <SellerCard seller={listing.seller} className="-mt-2 lg:col-start-1 lg:mt-0 lg:self-start" />

        <div className="min-w-0 space-y-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{categoryLabel}</p>
            <h1 className="mt-1 text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
              {listing.name}
            </h1>
            <div className="mt-3 flex flex-wrap items-center gap-3">
              {listing.free ? (
                <p className="text-3xl font-bold text-emerald-800">Free</p>
              ) : (
                <p className="text-3xl font-bold text-brand-800 tabular-nums">
                  {formatDollars(listing.price)}
                </p>
              )}
              {/* Beside the price "Free" says it already: the badge is for Reserved and Sold. */}
              <StatusBadge listing={{ ...listing, free: false }} />
              <ConditionChip condition={listing.condition} className="px-2.5 py-1 text-sm" />
              <SeasonBadge listing={listing} className="px-3 py-1 text-sm" />
              {userId !== null && (
                <div className="ml-auto flex gap-2">
                  <ShareButton listing={listing} />
                  {!isOwner && <SaveButton listing={listing} variant="inline" />}
                </div>
              )}
            </div>
            {(listing.courseCode || listing.isbn) && (
              <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
                {listing.courseCode && (
                  <div className="flex gap-1.5">
                    <dt className="text-slate-600">Course</dt>
                    <dd>
                      <Link
                        to={`/course/${listing.courseCode}`}
                        className="font-semibold text-brand-700 hover:text-brand-800 hover:underline"
                      >
                        {listing.courseCode}
                        <span className="sr-only"> (all books for this course)</span>
                      </Link>
                    </dd>
                  </div>
                )}
                {listing.isbn && (
                  <div className="flex gap-1.5">
                    <dt className="text-slate-600">ISBN</dt>
                    <dd className="font-medium text-slate-900 tabular-nums">{listing.isbn}</dd>
                  </div>
                )}
              </dl>
            )}
            <p className="mt-2 text-sm text-slate-600">
              {isOwner
                ? 'Posted by you'
                : // The seller card under the photo links to the profile.
                  `Listed by ${sellerShortName(listing.seller)}`}
              {ago && ` · listed ${ago}`}
            </p>
            {userId !== null && (
              <ListingPriceGuide
                className="mt-2"
                fields={{
                  name: listing.name,
                  category: listing.category,
                  condition: listing.condition,
                  courseCode: listing.courseCode ?? '',
                  isbn: listing.isbn ?? '',
                }}
              />
            )}
          </div>

          {userId !== null && <ListingActionBar listing={listing} myId={userId} />}

          {userId !== null && listing.free && <ClaimPanel listing={listing} myId={userId} />}

          <section aria-labelledby="description-heading">
            <h2
              id="description-heading"
              className="text-sm font-semibold tracking-wide text-slate-500 uppercase"
            >
              Description
            </h2>
            <p className="mt-2 leading-relaxed break-words whitespace-pre-line text-slate-800">
              {listing.description}
            </p>
          </section>

          {userId === null ? (
            <Spinner label="Loading…" className="text-brand-700" />
          ) : isOwner ? (
            <OwnerPanel listing={listing} />
          ) : (
            <VisitorPanel listing={listing} />
          )}
        </div>
      </div>
    </PageContainer>
  );
}
