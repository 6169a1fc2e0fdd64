import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { CATEGORY_LABELS, MESSAGES, type Listing } from '@campus/contract';
import { ApiError } from '../../../api/client';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { Button, ButtonLink } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { EmptyState } from '../../../ui/EmptyState';
import { ArrowLeftIcon, ChatIcon, CheckIcon, ListIcon, PinIcon, TagIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { Spinner } from '../../../ui/Spinner';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { ListingImage } from '../components/ListingImage';
import { SoldBadge } from '../components/SoldBadge';
import { prepareChatWithSeller } from '../chatHandoff';
import { formatPrice, listedAgo, sellerShortName } from '../format';
import { useListing } from '../hooks/useListing';
import { useListingActions } from '../hooks/useListingActions';
import { listingFromState, type CategoryPageState } from '../navigation';

function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

function NotFound() {
  const navigate = useNavigate();
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
            <Button
              variant="secondary"
              onClick={() => navigate(-1)}
              leadingIcon={<ArrowLeftIcon size={18} />}
            >
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
  const { toggleSold, remove, isPending } = useListingActions();
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
          : 'Students can find it in browse and search and message you about it.'}
      </p>
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button onClick={() => void toggleSold(listing)} disabled={busy}>
          {listing.isSold ? 'Mark as Unsold' : 'Mark as Sold'}
        </Button>
        <Button
          variant="danger-outline"
          disabled={busy}
          onClick={async () => {
            if (await remove(listing)) navigate('/personalListings', { replace: true });
          }}
        >
          Delete
        </Button>
      </div>
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
 * GET /listing/{id}. Owner view: 'This your listing', link to /personalListings, sold and delete.
 * Visitor view: 'Chat with the seller' and the two info blocks.
 */
export default function SingleListingPage() {
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
  const ago = listedAgo(listing.createdAt);
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
        <div className="relative">
          <ListingImage
            src={listing.imageUrl ?? listing.thumbnailUrl}
            alt={listing.name}
            category={listing.category}
            priority
            fit="contain"
            width={1600}
            height={1200}
            iconSize={64}
            className="aspect-[4/3] w-full rounded-3xl border border-slate-200 bg-slate-100"
          />
          {listing.isSold && <SoldBadge className="absolute top-4 left-4 px-3 py-1 text-sm" />}
        </div>

        <div className="min-w-0 space-y-6">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{categoryLabel}</p>
            <h1 className="mt-1 text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
              {listing.name}
            </h1>
            <p className="mt-3 flex flex-wrap items-center gap-3">
              <span className="text-3xl font-bold text-brand-800 tabular-nums">
                {formatPrice(listing.price)}
              </span>
              {listing.isSold && <SoldBadge />}
            </p>
            <p className="mt-2 text-sm text-slate-600">
              {isOwner ? 'Posted by you' : `Sold by ${sellerShortName(listing.seller)}`}
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
