import { MESSAGES, type Listing } from '@campus/contract';
import { Button, ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { ListIcon, PlusIcon } from '../../../ui/icons';
import { PageContainer, PageHeader } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { ListingsResults } from '../components/ListingsResults';
import { useListingActions } from '../hooks/useListingActions';
import { useListingsFeed } from '../hooks/useListingsFeed';

/**
 * /personalListings (spec §2): 'Your Listings' from GET /listings/self (sold ones included). Each
 * card: Mark as Sold / Mark as Unsold (flips at once, then the server; reverted on failure) and
 * Delete (6-second confirmation toast).
 */
export default function PersonalListingsPage() {
  useDocumentTitle('Your Listings');
  const feed = useListingsFeed({ kind: 'self' });
  const { toggleSold, remove, isPending } = useListingActions();

  function actions(listing: Listing) {
    const busy = isPending(listing.id);
    return (
      <>
        <Button
          size="sm"
          variant={listing.isSold ? 'secondary' : 'primary'}
          disabled={busy}
          onClick={() => void toggleSold(listing)}
          aria-describedby={`listing-${listing.id}-title`}
          className="flex-1"
        >
          {listing.isSold ? 'Mark as Unsold' : 'Mark as Sold'}
        </Button>
        <Button
          size="sm"
          variant="danger-outline"
          disabled={busy}
          onClick={() => void remove(listing)}
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
        description="Everything you've posted, sold or not. Sold items stay here but leave browse and search."
        actions={
          <ButtonLink to="/addlisting" leadingIcon={<PlusIcon size={18} />}>
            Add a listing
          </ButtonLink>
        }
      />
      <ListingsResults
        feed={feed}
        label="Your listings"
        headingLevel={2}
        renderActions={actions}
        empty={(failed) => (
          <EmptyState
            icon={<ListIcon />}
            title={MESSAGES.personalEmpty}
            description={failed ? MESSAGES.listingsLoadFailed : undefined}
            action={
              failed ? (
                <Button variant="secondary" onClick={feed.retry}>
                  Try again
                </Button>
              ) : (
                <ButtonLink to="/addlisting">+ Sell</ButtonLink>
              )
            }
          />
        )}
      />
    </PageContainer>
  );
}
