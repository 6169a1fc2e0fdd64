import { useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { CATEGORY_LABELS, formatDollars, MESSAGES, SELLING_MESSAGES, type Listing } from '@campus/contract';
import { ApiError } from '../../../api/client';
import { listingKeys } from '../../../api/listings';
import { queryClient } from '../../../api/queryClient';
import { ReservedSoldPanel } from '../../deals/ReservedSoldPanel';
import { reservedBuyerToAsk } from '../../deals/rules';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { Button, ButtonLink } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { EmptyState } from '../../../ui/EmptyState';
import {
  ArrowLeftIcon,
  ChatIcon,
  CheckIcon,
  HeartIcon,
  ListIcon,
  MegaphoneIcon,
  PencilIcon,
  PinIcon,
  TagIcon,
} from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { Spinner } from '../../../ui/Spinner';
import { InlineConfirm } from '../../../ui/InlineConfirm';
import { useBack } from '../../../ui/useBack';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { ReportButton } from '../../safety/ReportDialog';
import { ConditionChip } from '../components/ConditionChip';
import { PhotoGallery } from '../components/PhotoGallery';
import { SaveButton } from '../components/SaveButton';
import { StatusBadge } from '../components/SoldBadge';
import { prepareChatWithSeller } from '../chatHandoff';
import { listedAgo, sellerShortName } from '../format';
import { useListing } from '../hooks/useListing';
import { useListingActions } from '../hooks/useListingActions';
import { listingFromState, type CategoryPageState } from '../navigation';
import { useTimeBasis } from '../../../ui/timeBasis';

function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
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

function OwnerPanel({ listing }: { listing: Listing }) {
  const navigate = useNavigate();
  const { userId } = useCurrentUser();
  const { toggleSold, removeConfirmed, isPending } = useListingActions();
  const [confirming, setConfirming] = useState(false);
  const [askingSold, setAskingSold] = useState(false);
  const reservedBuyer = reservedBuyerToAsk(listing);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const busy = isPending(listing.id);
  return (
    <Card as="section" aria-labelledby="owner-heading" padding="sm" className="sm:p-5">
      <h2 id="owner-heading" className="flex items-center gap-2 font-semibold text-slate-900">
        <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <CheckIcon size={18} />
        </span>
        {MESSAGES.ownListing}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {listing.isSold
          ? 'It is marked as sold and hidden from browse and search.'
          : listing.status === 'RESERVED'
            ? `Reserved for ${listing.reservedFor?.firstName ?? 'a buyer'}. Confirm the sale with their hand-off code in your chat.`
            : 'Students can find it in browse and search and message you about it.'}
      </p>
      <ul className="mt-3 space-y-1.5 text-sm font-medium text-slate-800">
        <li className="flex items-center gap-2">
          <HeartIcon size={18} filled={(listing.saveCount ?? 0) > 0} className="text-rose-600" />
          {listing.saveCount === 1 ? '1 student saved it' : `${listing.saveCount ?? 0} students saved it`}
        </li>
        {(listing.wantedCount ?? 0) > 0 && (
          <li className="flex items-center gap-2">
            <MegaphoneIcon size={18} className="text-brand-700" />
            {SELLING_MESSAGES.lookingFor(listing.wantedCount ?? 0)}
          </li>
        )}
      </ul>
      {askingSold && reservedBuyer && userId !== null ? (
        <div className="mt-4">
          <ReservedSoldPanel
            listing={listing}
            buyer={reservedBuyer}
            sellerId={userId}
            busy={busy}
            onSellWithoutDeal={() => {
              setAskingSold(false);
              void toggleSold(listing);
            }}
            onCancel={() => {
              setAskingSold(false);
              void queryClient.invalidateQueries({ queryKey: listingKeys.detail(listing.id) });
            }}
          />
        </div>
      ) : confirming ? (
        <InlineConfirm
          className="mt-4"
          message={MESSAGES.deleteConfirm}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={async () => {
            if (await removeConfirmed(listing)) navigate('/personalListings', { replace: true });
            else {
              setConfirming(false);
              requestAnimationFrame(() => deleteButton.current?.focus());
            }
          }}
          onCancel={() => {
            setConfirming(false);
            requestAnimationFrame(() => deleteButton.current?.focus());
          }}
        />
      ) : (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          <ButtonLink
            to={`/edit_listing/${listing.id}`}
            state={{ listing }}
            variant="secondary"
            leadingIcon={<PencilIcon size={18} />}
          >
            Edit
          </ButtonLink>
          <Button
            onClick={() => (reservedBuyer ? setAskingSold(true) : void toggleSold(listing))}
            disabled={busy}
          >
            {listing.isSold ? 'Mark as Unsold' : 'Mark as Sold'}
          </Button>
          <Button
            ref={deleteButton}
            variant="danger-outline"
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            Delete
          </Button>
        </div>
      )}
      <ButtonLink
        to="/personalListings"
        variant="ghost"
        className="mt-3 -ml-3 text-brand-700 hover:text-brand-800"
        leadingIcon={<ListIcon size={18} />}
      >
        {MESSAGES.viewOwnListings}
      </ButtonLink>
    </Card>
  );
}

function VisitorPanel({ listing, myId }: { listing: Listing; myId: number }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [opening, setOpening] = useState(false);

  async function openChat() {
    if (opening) return;
    setOpening(true);
    try {
      const { to, state } = await prepareChatWithSeller(listing, myId, location.pathname);
      navigate(to, { state });
    } finally {
      setOpening(false);
    }
  }

  // a sold listing is no longer open to new buyers.
  if (listing.isSold) {
    return (
      <div role="status" className="rounded-2xl border border-slate-300 bg-slate-100 p-4">
        <p className="font-semibold text-slate-900">{MESSAGES.listingSold}</p>
        <p className="mt-1 text-sm text-slate-700">{MESSAGES.listingSoldNoChat}</p>
        <ButtonLink
          to={`/cat_listing?categories=${listing.category}`}
          variant="secondary"
          size="sm"
          className="mt-3"
        >
          Browse {CATEGORY_LABELS[listing.category] ?? 'similar listings'}
        </ButtonLink>
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <Button
        size="lg"
        fullWidth
        loading={opening}
        leadingIcon={<ChatIcon size={20} />}
        onClick={() => void openChat()}
      >
        Chat with the seller
      </Button>
      {/* A div, not a p: the report dialog inside it may not sit in a paragraph (the HTML parser
          would close the p before it, and the server-rendered page would not match the app's). */}
      <div className="text-sm text-slate-600">
        Something wrong with this listing?{' '}
        <ReportButton targetType="LISTING" targetId={listing.id} label="Report listing" />
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1">
        <div className="flex gap-3 rounded-2xl border border-slate-200 bg-white p-4">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
            <ChatIcon size={20} />
          </span>
          <div>
            <h2 className="font-semibold text-slate-900">Message the Seller</h2>
            <p className="mt-0.5 text-sm text-slate-600">
              Ask questions, confirm condition, and arrange pickup details
            </p>
          </div>
        </div>
        <div className="flex gap-3 rounded-2xl border border-slate-200 bg-white p-4">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-accent-100 text-accent-600">
            <PinIcon size={20} />
          </span>
          <div>
            <h2 className="font-semibold text-slate-900">Pickup on Campus</h2>
            <p className="mt-0.5 text-sm text-slate-600">Decide your meetup spot</p>
          </div>
        </div>
      </div>
    </div>
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

  return (
    <PageContainer>
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

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:gap-10">
        <div className="relative min-w-0">
          <PhotoGallery listing={listing} />
          <StatusBadge listing={listing} className="absolute top-4 left-4 px-3 py-1 text-sm" />
        </div>

        <div className="min-w-0 space-y-6">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{categoryLabel}</p>
            <h1 className="mt-1 text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
              {listing.name}
            </h1>
            <div className="mt-3 flex flex-wrap items-center gap-3">
              <p className="text-3xl font-bold text-brand-800 tabular-nums">{formatDollars(listing.price)}</p>
              <StatusBadge listing={listing} />
              <ConditionChip condition={listing.condition} className="px-2.5 py-1 text-sm" />
              {userId !== null && !isOwner && (
                <SaveButton listing={listing} variant="inline" className="ml-auto" />
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
              {isOwner ? (
                'Posted by you'
              ) : (
                <>
                  Listed by{' '}
                  <Link
                    to={`/u/${listing.seller.id}`}
                    className="font-medium text-brand-700 underline-offset-2 hover:underline"
                  >
                    {sellerShortName(listing.seller)}
                  </Link>
                </>
              )}
              {ago && ` · listed ${ago}`}
            </p>
          </div>

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
            <VisitorPanel listing={listing} myId={userId} />
          )}
        </div>
      </div>
    </PageContainer>
  );
}
