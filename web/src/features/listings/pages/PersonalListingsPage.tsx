import { ButtonLink } from '../../../ui/Button';
import { PageContainer, PageHeader } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';

/**
 * /personalListings (spec §2): 'Your Listings' with sold toggle and delete on each card.
 * TODO(listings feature): GET /listings/self, cards, empty state.
 */
export default function PersonalListingsPage() {
  useDocumentTitle('Your Listings');
  return (
    <PageContainer>
      <PageHeader title="Your Listings" actions={<ButtonLink to="/addlisting">+ Sell</ButtonLink>} />
    </PageContainer>
  );
}
