import { Card } from '../../../ui/Card';
import { PageContainer } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';

/**
 * /addlisting (spec §2): 'Add a new Listing'.
 * TODO(listings feature): Name, Price, Choose a Category, Description, photo; 'Add listing'.
 */
export default function AddListingPage() {
  useDocumentTitle('Add a new Listing');
  return (
    <PageContainer width="narrow" className="sm:max-w-2xl">
      <Card padding="lg">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Add a new Listing</h1>
        <p className="mt-2 text-slate-600">Takes under a minute. Add a photo to sell faster.</p>
      </Card>
    </PageContainer>
  );
}
