import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useBack } from '../../../ui/useBack';
import {
  CATEGORY_LABELS,
  CONDITION_LABELS,
  conditionApplies,
  isCategory,
  MESSAGES,
  PRICE_BUCKETS,
  type Category,
  type Condition,
  type PriceBucketId,
  type Sort,
} from '@campus/contract';
import type { ListingsSource } from '../../../api/listings';
import { Button, ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { ArrowLeftIcon, ArrowRightIcon, CategoryIcon, TagIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { ConditionFilter, FilterChip, FilterPanel, PriceFilter, SortSelect } from '../components/Filters';
import { ListingsResults } from '../components/ListingsResults';
import { useListingsFeed } from '../hooks/useListingsFeed';
import { categoryPassedFromState, preloadedListingsFromState } from '../navigation';
import {
  choiceRange,
  inBands,
  rangeLabel,
  readBrowseParams,
  readPriceChoice,
  writePriceChoice,
  type PriceChoice,
} from '../params';
import { CourseChips } from '../../selling/CourseChips';
import { CourseMatchCard } from '../../selling/CourseMatchCard';

/**
 * /cat_listing (spec §2): the category comes from `?categories=` or navigation state
 * `categoryPassed` (upper-cased); preloaded listings may arrive in state `singleCatListings`;
 * search text from `?query=`. Price-range checkboxes (several may be chosen; results are the
 * listings in any chosen band, not the span between them; a priceMin/priceMax from the URL is
 * honoured) as a sidebar on large screens and a toggle on small and medium ones.
 */
export default function CategoryListingsPage() {
  const back = useBack();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('categories') ?? categoryPassedFromState(location.state) ?? '';
  const upper = raw.split(',')[0]?.trim().toUpperCase() ?? '';
  const category: Category | null = isCategory(upper) ? upper : null;
  const browse = readBrowseParams(params);

  const [choice, setChoice] = useState<PriceChoice>(() => readPriceChoice(params));
  const buckets = choice.bands;
  const range = choiceRange(choice);
  const hasPrice = buckets.length > 0 || choice.custom !== null;

  // Keep the URL complete (category from state, chosen price range) so a reload shows the same.
  useEffect(() => {
    if (!category) return;
    let next = writePriceChoice(params, choice);
    if (next.get('categories') !== category) {
      next = new URLSearchParams(next);
      next.set('categories', category);
    }
    if (next.toString() !== params.toString()) {
      setParams(next, { replace: true, state: location.state, preventScrollReset: true });
    }
  });

  // features.md §B: order and condition apply here too ("relevance" only with search words).
  const sort: Sort = browse.sort ?? (browse.query ? 'relevance' : 'newest');
  const extras = {
    ...range,
    ...(browse.conditions.length > 0 ? { conditions: browse.conditions } : {}),
    ...(browse.sort && (browse.query || browse.sort !== 'relevance') ? { sort: browse.sort } : {}),
  };
  let source: ListingsSource;
  if (!category) source = { kind: 'all' };
  else if (browse.query) source = { kind: 'search', query: browse.query, categories: [category], ...extras };
  else if (Object.keys(extras).length > 0) source = { kind: 'filters', categories: [category], ...extras };
  else source = { kind: 'category', category };

  function setSort(value: Sort) {
    const next = new URLSearchParams(params);
    if (value === (browse.query ? 'relevance' : 'newest')) next.delete('sort');
    else next.set('sort', value);
    setParams(next, { replace: true, state: location.state, preventScrollReset: true });
  }

  function toggleCondition(condition: Condition) {
    const next = new URLSearchParams(params);
    const chosen = browse.conditions.includes(condition)
      ? browse.conditions.filter((c) => c !== condition)
      : [...browse.conditions, condition];
    next.delete('conditions');
    for (const c of chosen) next.append('conditions', c);
    setParams(next, { replace: true, state: location.state, preventScrollReset: true });
  }

  const preloaded =
    source.kind === 'category'
      ? preloadedListingsFromState(location.state)?.filter((l) => l.category === category)
      : undefined;
  const rawFeed = useListingsFeed(source, { preloaded, enabled: category !== null });
  // The server is asked for the span of the bands; keep only the listings in a chosen band.
  const feed = useMemo(() => {
    const listings = rawFeed.listings.filter((l) => inBands(l, buckets));
    // A page may hold only listings in the gap between bands: keep loading until one shows.
    const seeking = listings.length === 0 && rawFeed.hasNextPage && !rawFeed.isError;
    return { ...rawFeed, listings, isLoading: rawFeed.isLoading || seeking };
  }, [rawFeed, buckets]);
  const { fetchNextPage } = rawFeed;
  const seekMore = feed.listings.length === 0 && rawFeed.hasNextPage && !rawFeed.isFetchingNextPage;
  useEffect(() => {
    if (seekMore && !rawFeed.isLoading) fetchNextPage();
  }, [seekMore, rawFeed.isLoading, fetchNextPage]);
  useDocumentTitle(category ? CATEGORY_LABELS[category] : 'Category');

  function togglePrice(id: PriceBucketId) {
    setChoice((prev) => {
      const bands = prev.bands.includes(id) ? prev.bands.filter((b) => b !== id) : [...prev.bands, id];
      return { bands, custom: null };
    });
  }

  const clearPrice = () => setChoice({ bands: [], custom: null });
  const priceChip = choice.custom
    ? rangeLabel(choice.custom)
    : PRICE_BUCKETS.filter((b) => buckets.includes(b.id))
        .map((b) => b.label)
        .join(', ');

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
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Category</p>
            <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{label}</h1>
          </div>
        </div>
        <ButtonLink to="/all_listings" variant="secondary" className="self-start sm:self-auto">
          View All Categories <ArrowRightIcon size={18} />
        </ButtonLink>
      </div>

      {category === 'BOOKS' && <CourseChips />}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8">
        <aside aria-label="Filters">
          <FilterPanel
            activeCount={(hasPrice ? 1 : 0) + browse.conditions.length}
            onClear={() => {
              clearPrice();
              if (browse.conditions.length > 0) {
                const next = new URLSearchParams(params);
                next.delete('conditions');
                setParams(next, { replace: true, state: location.state, preventScrollReset: true });
              }
            }}
            resultCount={feed.isLoading ? undefined : feed.listings.length}
            moreResults={feed.hasNextPage}
          >
            <PriceFilter mode="multi" selected={buckets} onToggle={togglePrice} />
            {conditionApplies(category ?? 'OTHER') && (
              <ConditionFilter selected={browse.conditions} onToggle={toggleCondition} />
            )}
          </FilterPanel>
        </aside>

        <section aria-label={`${label} listings`} className="min-w-0">
          <SortSelect value={sort} onChange={setSort} withRelevance={browse.query !== ''} className="mb-4" />
          {(browse.query || hasPrice || browse.conditions.length > 0) && (
            <div className="mb-4 flex flex-wrap items-center gap-2">
              <span className="text-sm text-slate-600">Active:</span>
              <ul className="flex flex-wrap gap-2" aria-label="Active filters">
                {browse.query && <FilterChip label={`“${browse.query}”`} onRemove={clearQuery} />}
                {hasPrice && <FilterChip label={priceChip} onRemove={clearPrice} />}
                {browse.conditions.map((c) => (
                  <FilterChip key={c} label={CONDITION_LABELS[c]} onRemove={() => toggleCondition(c)} />
                ))}
              </ul>
            </div>
          )}
          {category === 'BOOKS' && browse.query && <CourseMatchCard query={browse.query} />}
          <ListingsResults
            feed={feed}
            label={`${label} listings`}
            headingLevel={2}
            empty={() =>
              hasPrice || browse.query ? (
                <EmptyState
                  icon={<CategoryIcon category={category} size={22} />}
                  title={MESSAGES.listingsFilteredEmpty}
                  description={
                    browse.query
                      ? `No ${label} listing matches “${browse.query}”${hasPrice ? ' at these prices' : ''}.`
                      : MESSAGES.listingsFilteredEmptyHint
                  }
                  action={
                    <div className="flex flex-wrap justify-center gap-2">
                      {hasPrice && (
                        <Button variant="secondary" onClick={clearPrice}>
                          Clear price filter
                        </Button>
                      )}
                      {browse.query && (
                        <ButtonLink to={`/all_listings?${new URLSearchParams({ query: browse.query })}`}>
                          {MESSAGES.searchAllCategories}
                        </ButtonLink>
                      )}
                    </div>
                  }
                />
              ) : (
                <EmptyState
                  icon={<CategoryIcon category={category} size={22} />}
                  title={MESSAGES.categoryEmpty}
                  action={
                    <div className="flex flex-wrap justify-center gap-2">
                      <Button variant="secondary" onClick={back} leadingIcon={<ArrowLeftIcon size={18} />}>
                        Get Back
                      </Button>
                      <ButtonLink to="/addlisting">+ Sell an item</ButtonLink>
                    </div>
                  }
                />
              )
            }
          />
        </section>
      </div>
    </PageContainer>
  );
}
