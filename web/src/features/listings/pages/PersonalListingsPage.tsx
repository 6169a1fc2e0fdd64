import { useEffect, useRef, useState } from 'react';
import { MESSAGES, type Listing } from '@campus/contract';
import { listingKeys } from '../../../api/listings';
import { queryClient } from '../../../api/queryClient';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { InlineConfirm } from '../../../ui/InlineConfirm';
import { ReservedSoldPanel } from '../../deals/ReservedSoldPanel';
import { reservedBuyerToAsk } from '../../deals/rules';
import { Button, ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { ListIcon, PencilIcon, PlusIcon } from '../../../ui/icons';
import { PageContainer, PageHeader } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { ListingFreshness } from '../../freshness/ListingFreshness';
import { useRenewListing } from '../../freshness/useRenewListing';
import { ListingsResults } from '../components/ListingsResults';
import { useListingActions } from '../hooks/useListingActions';
import { useListingsFeed } from '../hooks/useListingsFeed';
import { MoveOutForm } from '../../moving-out/MoveOutForm';

/**
 * /personalListings (spec §2): 'Your Listings' from GET /listings/self (sold ones included). Each
 * card: Mark as Sold / Mark as Unsold (flips at once, then the server; reverted on failure) and
 * Delete (an inline confirmation that takes focus; focus comes back to the card on Cancel or
 * Escape, and to the list after a delete).
 */
export default function PersonalListingsPage() {
  useDocumentTitle('Your Listings');
  const feed = useListingsFeed({ kind: 'self' });
  const { toggleSold, removeConfirmed, isPending } = useListingActions();
  const { renew, renewing } = useRenewListing();
  const [confirming, setConfirming] = useState<number | null>(null);
  const [askingSold, setAskingSold] = useState<number | null>(null);
  const { userId } = useCurrentUser();
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!focusTarget) return;
    const el = focusTarget === 'list' ? listRef.current : document.getElementById(focusTarget);
    el?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  async function confirmDelete(listing: Listing) {
    const deleted = await removeConfirmed(listing);
    setConfirming(null);
    setFocusTarget(deleted ? 'list' : `delete-${listing.id}`);
  }

  function actions(listing: Listing) {
    const busy = isPending(listing.id);
    const reservedBuyer = reservedBuyerToAsk(listing);
    if (askingSold === listing.id && reservedBuyer && userId !== null) {
      return (
        <ReservedSoldPanel
          listing={listing}
          buyer={reservedBuyer}
          sellerId={userId}
          busy={busy}
          onSellWithoutDeal={() => {
            setAskingSold(null);
            void toggleSold(listing);
          }}
          onCancel={() => {
            setAskingSold(null);
            void queryClient.invalidateQueries({ queryKey: listingKeys.lists() });
          }}
        />
      );
    }
    if (confirming === listing.id) {
      return (
        <InlineConfirm
          message={MESSAGES.deleteConfirm}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={() => void confirmDelete(listing)}
          onCancel={() => {
            setConfirming(null);
            setFocusTarget(`delete-${listing.id}`);
          }}
        />
      );
    }
    return (
      <>
        <ListingFreshness listing={listing} onRenew={renew} busy={renewing === listing.id} />
        <Button
          size="sm"
          variant={listing.isSold || listing.expired ? 'secondary' : 'primary'}
          disabled={busy}
          onClick={() => (reservedBuyer ? setAskingSold(listing.id) : void toggleSold(listing))}
          aria-describedby={`listing-${listing.id}-title`}
          className="flex-1"
        >
          {listing.isSold ? 'Mark as Unsold' : 'Mark as Sold'}
        </Button>
        <ButtonLink
          to={`/edit_listing/${listing.id}`}
          state={{ listing }}
          size="sm"
          variant="secondary"
          leadingIcon={<PencilIcon size={16} />}
          aria-describedby={`listing-${listing.id}-title`}
        >
          Edit
        </ButtonLink>
        <Button
          id={`delete-${listing.id}`}
          size="sm"
          variant="danger-outline"
          disabled={busy}
          onClick={() => setConfirming(listing.id)}
          aria-describedby={`listing-${listing.id}-title`}
        >
          Delete
        </Button>
      </>
    );
  }

  return (
    <PageContainer>
      <PageHeader
        title="Your Listings"
        description="Everything you've posted, sold or not. Sold items stay here but leave browse and search; so do listings that expired, until you renew them."
        actions={
          <ButtonLink to="/addlisting" leadingIcon={<PlusIcon size={18} />}>
            Add a listing
          </ButtonLink>
        }
      />
      <MoveOutForm />
      <div ref={listRef} tabIndex={-1} role="region" aria-label="Your listings" className="outline-none">
        <ListingsResults
          feed={feed}
          label="All your listings"
          headingLevel={2}
          renderActions={actions}
          errorText="We could not load your listings right now."
          empty={() => (
            <EmptyState
              icon={<ListIcon />}
              title={MESSAGES.personalEmpty}
              action={<ButtonLink to="/addlisting">+ Sell</ButtonLink>}
            />
          )}
        />
      </div>
    </PageContainer>
  );
}
