import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { MESSAGES } from '@campus/contract';
import { listingKeys } from '../../../api/listings';
import { Card } from '../../../ui/Card';
import { TagIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { toast } from '../../../ui/toast';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { ListingForm } from '../components/ListingForm';
import { formValuesFromParams } from '../components/listingFormValues';
import { createFromForm, type SavePhase } from '../saveListing';

/**
 * /addlisting (spec §2, §5; features.md §B): the listing form with up to 8 photos compressed in
 * the browser; 'Add listing'. A wanted post's "I have this" pre-fills it from the URL.
 */
export default function AddListingPage() {
  useDocumentTitle('Add a new Listing');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [initial] = useState(() => formValuesFromParams(params));
  const [phase, setPhase] = useState<SavePhase | null>(null);
  const fromWanted = params.has('name');

  return (
    <PageContainer width="narrow" className="sm:max-w-2xl sm:py-10">
      <Card padding="lg">
        <div className="mb-5 flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
          <TagIcon size={24} />
        </div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Add a new Listing</h1>
        <p className="mt-2 text-slate-600">
          {fromWanted
            ? 'We filled in what the student is looking for. Check it, add photos and post.'
            : 'Takes under a minute. Add a photo to sell faster.'}
        </p>
        <ListingForm
          initial={initial}
          freeChoice
          submitLabel="Add listing"
          busyLabel={
            phase === 'compressing'
              ? MESSAGES.listingPhotoPreparing
              : phase === 'uploading'
                ? MESSAGES.listingPosting
                : null
          }
          onSubmit={async (form) => {
            try {
              const reply = await createFromForm(form, setPhase);
              if (reply === MESSAGES.listingCreated) {
                await queryClient.invalidateQueries({ queryKey: listingKeys.all, refetchType: 'none' });
                toast.success(MESSAGES.listingCreated);
                navigate('/all_listings');
                return;
              }
              toast.error(reply || MESSAGES.listingUploadError);
            } finally {
              setPhase(null);
            }
          }}
        />
      </Card>
    </PageContainer>
  );
}
