import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  bucketsToRange,
  CATEGORY_LABELS,
  CATEGORY_TILES,
  isCategory,
  MESSAGES,
  rangeToBuckets,
  type Category,
  type PriceBucketId,
} from '@campus/contract';
import type { ListingsSource } from '../../../api/listings';
import { Button, ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { ArrowLeftIcon, ArrowRightIcon, CategoryIcon, TagIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { FilterChip, FilterPanel, PriceFilter } from '../components/Filters';
import { ListingsResults } from '../components/ListingsResults';
import { useListingsFeed } from '../hooks/useListingsFeed';
import { categoryPassedFromState, preloadedListingsFromState } from '../navigation';
import { rangeLabel, readBrowseParams, writePrice } from '../params';

function tileTitle(category: Category): string {
  return CATEGORY_TILES.find((t) => t.category === category)?.title ?? CATEGORY_LABELS[category];
}

/**
 * /cat_listing (spec §2): the category comes from `?categories=` or navigation state
 * `categoryPassed` (upper-cased); preloaded listings may arrive in state `singleCatListings`;
 * search text from `?query=`. Price-range checkboxes (several may be chosen; the range spans them)
 * as a sidebar on large screens and a toggle on small and medium ones.
 */
export default function CategoryListingsPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('categories') ?? categoryPassedFromState(location.state) ?? '';
  const upper = raw.split(',')[0]?.trim().toUpperCase() ?? '';
  const category: Category | null = isCategory(upper) ? upper : null;
  const browse = readBrowseParams(params);

  const [buckets, setBuckets] = useState<PriceBucketId[]>(() =>
    rangeToBuckets({ priceMin: browse.priceMin, priceMax: browse.priceMax }),
  );
  const range = bucketsToRange(buckets);
  const hasPrice = buckets.length > 0;

  // Keep the URL complete (category from state, chosen price range) so a reload shows the same.
  useEffect(() => {
    if (!category) return;
    let next = writePrice(params, range);
    if (next.get('categories') !== category) {
      next = new URLSearchParams(next);
      next.set('categories', category);
    }
    if (next.toString() !== params.toString()) {
      setParams(next, { replace: true, state: location.state, preventScrollReset: true });
    }
  });

  let source: ListingsSource;
  if (!category) source = { kind: 'all' };
  else if (browse.query) source = { kind: 'search', query: browse.query, categories: [category], ...range };
  else if (hasPrice) source = { kind: 'filters', categories: [category], ...range };
  else source = { kind: 'category', category };

  const preloaded =
    source.kind === 'category'
      ? preloadedListingsFromState(location.state)?.filter((l) => l.category === category)
      : undefined;
  const feed = useListingsFeed(source, { preloaded, enabled: category !== null });
  useDocumentTitle(category ? CATEGORY_LABELS[category] : 'Category');

  function togglePrice(id: PriceBucketId) {
    setBuckets((prev) => (prev.includes(id) ? prev.filter((b) => b !== id) : [...prev, id]));
  }

  function clearQuery() {
    const next = new URLSearchParams(params);
    next.delete('query');
    setParams(next, { replace: true, state: location.state, preventScrollReset: true, flushSync: true });
  }

  if (!category) {
    return (
      <PageContainer width="default">
        <EmptyState
          icon={<TagIcon />}
          title="Choose a category"
          headingLevel={1}
          description="This category does not exist. Pick one of ours or browse everything."
          action={<ButtonLink to="/all_listings">View All Categories</ButtonLink>}
        />
      </PageContainer>
    );
  }

  const label = CATEGORY_LABELS[category];

  return (
    <PageContainer>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex items-center gap-4">
          <span className="flex h-14 w-14 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
            <CategoryIcon category={category} size={28} />
          </span>
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">
              {tileTitle(category)}
            </p>
            <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{label}</h1>
          </div>
        </div>
        <ButtonLink to="/all_listings" variant="secondary" className="self-start sm:self-auto">
          View All Categories <ArrowRightIcon size={18} />
        </ButtonLink>
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8">
        <aside aria-label="Price filter">
          <FilterPanel activeCount={hasPrice ? 1 : 0} onClear={() => setBuckets([])}>
            <PriceFilter mode="multi" selected={buckets} onToggle={togglePrice} />
          </FilterPanel>
        </aside>

        <section aria-label={`${label} listings`} className="min-w-0">
          {(browse.query || hasPrice) && (
            <div className="mb-4 flex flex-wrap items-center gap-2">
              <span className="text-sm text-slate-600">Active:</span>
              <ul className="flex flex-wrap gap-2" aria-label="Active filters">
                {browse.query && <FilterChip label={`“${browse.query}”`} onRemove={clearQuery} />}
                {hasPrice && <FilterChip label={rangeLabel(range)} onRemove={() => setBuckets([])} />}
              </ul>
            </div>
          )}
          <ListingsResults
            feed={feed}
            label={`${label} listings`}
            headingLevel={2}
            empty={(failed) => (
              <EmptyState
                icon={<CategoryIcon category={category} size={22} />}
                title={MESSAGES.categoryEmpty}
                description={failed ? MESSAGES.listingsLoadFailed : undefined}
                action={
                  <div className="flex flex-wrap justify-center gap-2">
                    <Button
                      variant="secondary"
                      onClick={() => navigate(-1)}
                      leadingIcon={<ArrowLeftIcon size={18} />}
                    >
                      Get Back
                    </Button>
                    {failed ? (
                      <Button onClick={feed.retry}>Try again</Button>
                    ) : (
                      <ButtonLink to="/addlisting">+ Sell an item</ButtonLink>
                    )}
                  </div>
                }
              />
            )}
          />
        </section>
      </div>
    </PageContainer>
  );
}
