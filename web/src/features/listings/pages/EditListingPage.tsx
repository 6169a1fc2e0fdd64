import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { MESSAGES, SELLING_MESSAGES, type Listing } from '@campus/contract';
import { ApiError } from '../../../api/client';
import { getListing, listingKeys } from '../../../api/listings';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { Button, ButtonLink } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { EmptyState } from '../../../ui/EmptyState';
import { PencilIcon, TagIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { Spinner } from '../../../ui/Spinner';
import { toast } from '../../../ui/toast';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { patchListingEverywhere } from '../cache';
import { existingPhotoItem } from '../components/PhotoPicker';
import { ListingForm } from '../components/ListingForm';
import type { ListingFormValues } from '../components/listingFormValues';
import { listingFromState } from '../navigation';
import { editFromForm, type SavePhase } from '../saveListing';

function valuesOf(listing: Listing): ListingFormValues {
  return {
    name: listing.name,
    price: listing.free ? '' : String(listing.price),
    category: listing.category,
    description: listing.description,
    condition: listing.condition ?? '',
    courseCode: listing.courseCode ?? '',
    isbn: listing.isbn ?? '',
    photos: listing.photos.map(existingPhotoItem),
    free: listing.free,
    claimWindowHours: String(listing.claimWindowHours ?? ''),
  };
}

/**
 * /edit_listing/:id (features.md §B "Edit"): the add form filled with the listing, reached from
 * "My listings" and the listing page; only the seller may use it (the server checks too).
 */
export default function EditListingPage() {
  const { id: rawId } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const id = rawId && /^\d{1,15}$/.test(rawId) ? Number(rawId) : null;
  // Always the server's copy, fetched on arrival: navigation state or the cache may predate the
  // last change (another tab, the phone), and the form starts from what it shows.
  const query = useQuery({
    queryKey: listingKeys.detail(id ?? 0),
    queryFn: ({ signal }) => getListing(id ?? 0, signal),
    enabled: id !== null,
    refetchOnMount: 'always',
    placeholderData: id === null ? undefined : listingFromState(location.state, id),
  });
  const { userId } = useCurrentUser();
  const [phase, setPhase] = useState<SavePhase | null>(null);
  const listing = query.data;
  useDocumentTitle(listing ? `Edit ${listing.name}` : 'Edit listing');

  if (id === null || (query.error instanceof ApiError && [400, 404].includes(query.error.status))) {
    return (
      <PageContainer width="default">
        <EmptyState
          icon={<TagIcon />}
          headingLevel={1}
          title={MESSAGES.listingNotFoundTitle}
          description={`${MESSAGES.listingNotFound}.`}
          action={<ButtonLink to="/personalListings">Your listings</ButtonLink>}
        />
      </PageContainer>
    );
  }
  if (!listing || query.isPlaceholderData || !query.isFetchedAfterMount || userId === null) {
    if (query.isError && !listing)
      return (
        <PageContainer width="default">
          <EmptyState
            icon={<TagIcon />}
            headingLevel={1}
            title="We could not load this listing."
            action={<Button onClick={() => void query.refetch()}>Try again</Button>}
          />
        </PageContainer>
      );
    return (
      <PageContainer>
        <div role="status" className="flex min-h-[40vh] items-center justify-center text-brand-700">
          <Spinner size="lg" label="Loading the listing…" />
        </div>
      </PageContainer>
    );
  }
  if (listing.seller.id !== userId) {
    return (
      <PageContainer width="default">
        <EmptyState
          icon={<TagIcon />}
          headingLevel={1}
          title={MESSAGES.notYourListing}
          action={<ButtonLink to={`/single_listing/${listing.id}`}>Back to the listing</ButtonLink>}
        />
      </PageContainer>
    );
  }

  return (
    <PageContainer width="narrow" className="sm:max-w-2xl sm:py-10">
      <Card padding="lg">
        <div className="mb-5 flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
          <PencilIcon size={24} />
        </div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Edit listing</h1>
        <p className="mt-2 text-slate-600">
          Fix a typo, lower the price or add photos. Students who saved it hear about a price drop.
        </p>
        <ListingForm
          key={listing.id}
          initial={valuesOf(listing)}
          submitLabel="Save changes"
          busyLabel={
            phase === 'compressing'
              ? MESSAGES.listingPhotoPreparing
              : phase === 'uploading'
                ? 'Saving…'
                : null
          }
          onSubmit={async (form) => {
            try {
              const saved = await editFromForm(listing, form, setPhase);
              patchListingEverywhere(client, listing.id, () => saved);
              client.setQueryData(listingKeys.detail(listing.id), saved);
              void client.invalidateQueries({ queryKey: listingKeys.lists(), refetchType: 'none' });
              toast.success(SELLING_MESSAGES.listingUpdated);
              navigate(`/single_listing/${listing.id}`, { state: { listing: saved }, replace: true });
            } catch (error) {
              // Part of the change may have been saved: show the listing as it is now.
              void client.invalidateQueries({ queryKey: listingKeys.detail(listing.id) });
              throw error;
            } finally {
              setPhase(null);
            }
          }}
        />
      </Card>
    </PageContainer>
  );
}
