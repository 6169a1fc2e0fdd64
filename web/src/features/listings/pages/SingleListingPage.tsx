import { useParams } from 'react-router';
import { PageContainer } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';

/**
 * /single_listing/:id (spec §2).
 * TODO(listings feature): breadcrumb, image, name, price, description, seller actions / chat.
 */
export default function SingleListingPage() {
  const { id } = useParams();
  useDocumentTitle('Listing');
  return (
    <PageContainer>
      <nav aria-label="Breadcrumb" className="mb-4 text-sm text-slate-600">
        Listing #{id}
      </nav>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Loading…</h1>
    </PageContainer>
  );
}
