import { MOVE_OUT_MESSAGES } from '@campus/contract';
import { ButtonLink } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { TagIcon } from '../../ui/icons';
import { PageContainer, PageHeader } from '../../ui/PageContainer';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ListingsResults } from '../listings/components/ListingsResults';
import { useListingsFeed } from '../listings/hooks/useListingsFeed';

/**
 * /moving_out (features.md §H): everything students moving out must sell, soonest deadline first
 * (GET /listings/moving-out, paged like browse). Linked from the dashboard and browse.
 */
export default function MovingOutPage() {
  useDocumentTitle(MOVE_OUT_MESSAGES.shelfTitle);
  const feed = useListingsFeed({ kind: 'movingOut' });
  return (
    <PageContainer>
      <PageHeader
        title={MOVE_OUT_MESSAGES.shelfTitle}
        description={MOVE_OUT_MESSAGES.shelfHint}
        actions={
          <ButtonLink to="/personalListings" variant="secondary">
            Moving out yourself?
          </ButtonLink>
        }
      />
      <ListingsResults
        feed={feed}
        label="Listings of students moving out"
        headingLevel={2}
        errorText="We could not load the moving-out listings right now."
        empty={() => (
          <EmptyState
            icon={<TagIcon />}
            title={MOVE_OUT_MESSAGES.emptyShelf}
            description="When students set a move-out date, what they must sell shows up here."
            action={<ButtonLink to="/all_listings">Browse all listings</ButtonLink>}
          />
        )}
      />
    </PageContainer>
  );
}
