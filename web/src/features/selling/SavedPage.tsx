import { SELLING_MESSAGES } from '@campus/contract';
import { ButtonLink } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { HeartIcon } from '../../ui/icons';
import { PageContainer, PageHeader } from '../../ui/PageContainer';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ListingsResults } from '../listings/components/ListingsResults';
import { useListingsFeed } from '../listings/hooks/useListingsFeed';

/**
 * /saved (features.md §B "Favourites"): the listings the student hearted, newest save first, sold
 * ones included so they can see what they missed. Un-hearting keeps the card until the next visit,
 * so a slip of the finger is one tap to undo.
 */
export default function SavedPage() {
  useDocumentTitle('Saved');
  const feed = useListingsFeed({ kind: 'saved' });
  return (
    <PageContainer>
      <PageHeader
        title="Saved"
        description="Listings you hearted. Sellers can't see who saved them."
        actions={
          <ButtonLink to="/saved_searches" variant="secondary">
            Saved searches
          </ButtonLink>
        }
      />
      <ListingsResults
        feed={feed}
        label="Saved listings"
        headingLevel={2}
        errorText="We could not load your saved listings right now."
        empty={() => (
          <EmptyState
            icon={<HeartIcon />}
            title={SELLING_MESSAGES.savedEmpty}
            description="Saved listings stay here, even after they sell."
            action={<ButtonLink to="/all_listings">Browse listings</ButtonLink>}
          />
        )}
      />
    </PageContainer>
  );
}
