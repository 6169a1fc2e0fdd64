import { CATEGORY_LABELS, isCategory } from '@campus/contract';
import { useLocation, useSearchParams } from 'react-router';
import { ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { TagIcon } from '../../../ui/icons';
import { PageContainer, PageHeader } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';

/**
 * /cat_listing (spec §2): category from ?categories= or navigation state categoryPassed, upper-cased.
 * TODO(listings feature): listings of the category, price filter panel, empty state.
 */
export default function CategoryListingsPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const fromState = (location.state as { categoryPassed?: unknown } | null)?.categoryPassed;
  const raw = (params.get('categories') ?? (typeof fromState === 'string' ? fromState : '')).toUpperCase();
  const label = isCategory(raw) ? CATEGORY_LABELS[raw] : raw || 'Category';
  useDocumentTitle(label);

  return (
    <PageContainer>
      <PageHeader
        title={label}
        actions={
          <ButtonLink to="/all_listings" variant="secondary">
            View All Categories
          </ButtonLink>
        }
      />
      <EmptyState
        icon={<TagIcon />}
        title="Listings are on their way."
        description="This page is being built."
      />
    </PageContainer>
  );
}
