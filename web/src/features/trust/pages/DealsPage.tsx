import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import { formatDollars, TRUST_MESSAGES, type DealWithReviews, type Review } from '@campus/contract';
import { getDeals, trustKeys } from '../../../api/trust';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { EmptyState } from '../../../ui/EmptyState';
import { ErrorState } from '../../../ui/ErrorState';
import { TagIcon } from '../../../ui/icons';
import { PageContainer, PageHeader } from '../../../ui/PageContainer';
import { Spinner } from '../../../ui/Spinner';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { RateDialog } from '../components/RateDialog';
import { Stars } from '../components/Stars';
import { formatDate } from '../format';
import { useTimeBasis } from '../../../ui/timeBasis';
import { HeldItems } from '../../moving-out/HeldItems';

/**
 * /my-deals (the API's GET /deals is the data; the page needs its own path): every deal of the caller (features.md §A) and where its reviews stand. `?rate={dealId}`
 * opens "Rate {name}" at once — the hand-off screen sends the two students here after a deal.
 */
export default function DealsPage() {
  useDocumentTitle('Your deals');
  const [params, setParams] = useSearchParams();
  const query = useInfiniteQuery({
    queryKey: trustKeys.deals,
    queryFn: ({ pageParam, signal }) => getDeals(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const deals = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const [rating, setRating] = useState<DealWithReviews | null>(null);

  const rateParam = Number(params.get('rate'));
  useEffect(() => {
    if (!rateParam || rating) return;
    const deal = deals.find((d) => d.id === rateParam);
    if (deal?.canReview) setRating(deal);
  }, [rateParam, deals, rating]);

  function closeDialog() {
    setRating(null);
    if (params.has('rate')) {
      params.delete('rate');
      setParams(params, { replace: true });
    }
  }

  return (
    <PageContainer width="default">
      <PageHeader
        title="Your deals"
        description="Everything you sold or bought with a hand-off code, and your reviews."
      />
      <HeldItems />
      {query.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading your deals…" />
        </div>
      ) : query.isError ? (
        <ErrorState title="Your deals could not be loaded" onRetry={() => void query.refetch()} />
      ) : deals.length === 0 ? (
        <EmptyState icon={<TagIcon size={24} />} title="No deals yet" description={TRUST_MESSAGES.noDeals} />
      ) : (
        <>
          <ul aria-label="Deals" className="space-y-3">
            {deals.map((deal) => (
              <li key={deal.id}>
                <DealCard deal={deal} onRate={() => setRating(deal)} />
              </li>
            ))}
          </ul>
          {query.hasNextPage && (
            <div className="mt-6 flex justify-center">
              <Button
                variant="secondary"
                loading={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                Show more deals
              </Button>
            </div>
          )}
        </>
      )}
      {rating && <RateDialog deal={rating} open onClose={closeDialog} />}
    </PageContainer>
  );
}

function DealCard({ deal, onRate }: { deal: DealWithReviews; onRate: () => void }) {
  const basis = useTimeBasis();
  const name = `${deal.counterpart.firstName} ${deal.counterpart.lastName}`.trim();
  return (
    <Card as="article" padding="md" aria-labelledby={`deal-${deal.id}`}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id={`deal-${deal.id}`} className="truncate text-lg font-bold text-slate-900">
            {deal.listingName}
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            <span className="font-semibold text-brand-800 tabular-nums">{formatDollars(deal.price)}</span>
            {' · '}
            {deal.role === 'SELLER' ? 'Sold to ' : 'Bought from '}
            <Link
              to={`/u/${deal.counterpart.id}`}
              className="font-medium text-brand-700 underline-offset-2 hover:underline"
            >
              {name}
            </Link>
            {' · '}
            <time dateTime={deal.completedAt}>{formatDate(deal.completedAt, basis)}</time>
          </p>
          {deal.items.length > 1 && (
            // A bundle deal (features.md §H): every item it sold.
            <ul aria-label={`Items of ${deal.listingName}`} className="mt-2 flex flex-wrap gap-1.5">
              {deal.items.map((item) => (
                <li
                  key={item.listingId}
                  className="rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-medium text-slate-800"
                >
                  {item.listingName}
                </li>
              ))}
            </ul>
          )}
        </div>
        {deal.canReview && (
          <Button onClick={onRate} className="shrink-0">
            Rate {deal.counterpart.firstName}
          </Button>
        )}
      </div>
      <ReviewState deal={deal} />
    </Card>
  );
}

function ReviewState({ deal }: { deal: DealWithReviews }) {
  const basis = useTimeBasis();
  const first = deal.counterpart.firstName;
  if (!deal.myReview && !deal.theirReview) {
    return (
      <p className="mt-3 text-sm text-slate-600">
        {deal.canReview
          ? `Not rated yet. You can rate ${first} until ${formatDate(deal.reviewDeadline, basis)}.`
          : 'The review period ended without reviews.'}
      </p>
    );
  }
  return (
    <dl className="mt-4 grid gap-3 border-t border-slate-100 pt-4 sm:grid-cols-2">
      <div>
        <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Your review</dt>
        <dd className="mt-1">
          {deal.myReview ? (
            <ReviewLine
              review={deal.myReview}
              hiddenNote={
                deal.myReview.revealedAt
                  ? null
                  : `Hidden until ${first} rates you too, or ${formatDate(deal.reviewDeadline, basis)}.`
              }
            />
          ) : (
            <span className="text-sm text-slate-600">
              {deal.canReview ? 'Not written yet.' : 'You did not review this deal.'}
            </span>
          )}
        </dd>
      </div>
      <div>
        <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
          {first}&rsquo;s review of you
        </dt>
        <dd className="mt-1">
          {deal.theirReview ? (
            <ReviewLine review={deal.theirReview} hiddenNote={null} />
          ) : (
            <span className="text-sm text-slate-600">
              {deal.revealed || !deal.canReview ? 'No review.' : TRUST_MESSAGES.reviewHiddenUntil}
            </span>
          )}
        </dd>
      </div>
    </dl>
  );
}

function ReviewLine({ review, hiddenNote }: { review: Review; hiddenNote: string | null }) {
  return (
    <div className="space-y-1">
      <Stars value={review.stars} />
      {review.text && <p className="text-sm break-words text-slate-800">{review.text}</p>}
      {hiddenNote && <p className="text-xs text-slate-600">{hiddenNote}</p>}
    </div>
  );
}
