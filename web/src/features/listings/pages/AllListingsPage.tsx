import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { ArrowLeftIcon, SearchIcon } from '../../../ui/icons';
import { PageContainer, PageHeader } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';

/**
 * /all_listings (spec §2): query, categories, priceMin, priceMax in the query string; filter
 * sidebar, search, Back button.
 * TODO(listings feature): filter sidebar, fuzzy search and the listing grid.
 */
export default function AllListingsPage() {
  useDocumentTitle('All listings');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const query = params.get('query');

  return (
    <PageContainer>
      <PageHeader
        title="All Listings"
        description={query ? `Results for “${query}”` : 'Everything students are selling right now.'}
        actions={
          <Button variant="secondary" onClick={() => navigate(-1)} leadingIcon={<ArrowLeftIcon size={18} />}>
            Back
          </Button>
        }
      />
      <EmptyState
        icon={<SearchIcon />}
        title="Listings are on their way."
        description="This page is being built."
      />
    </PageContainer>
  );
}
