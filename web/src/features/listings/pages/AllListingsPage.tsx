import { Link, useSearchParams } from 'react-router';
import { useBack } from '../../../ui/useBack';
import {
  CATEGORY_LABELS,
  CONDITION_LABELS,
  MESSAGES,
  PRICE_BUCKETS,
  type Category,
  type Condition,
  type PriceBucketId,
  type Sort,
} from '@campus/contract';
import { Button, ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { ArrowLeftIcon, FilterIcon, SearchIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import {
  CategoryFilter,
  ConditionFilter,
  FilterChip,
  FreeFilter,
  FilterPanel,
  PriceFilter,
  SortSelect,
} from '../components/Filters';
import { SaveSearchButton } from '../components/SaveSearchButton';
import { ListingsResults } from '../components/ListingsResults';
import { useListingsFeed } from '../hooks/useListingsFeed';
import { browseSource, rangeLabel, rangeOf, readBrowseParams, sameRange, writePrice } from '../params';
import { CourseMatchCard } from '../../selling/CourseMatchCard';

/**
 * /all_listings (spec §2): query-string state `query`, `categories` (repeated), `priceMin`,
 * `priceMax`; a filter sidebar (categories multi-select, one price bucket at a time); search
 * through the top-bar search box; Back. With a query: GET /listings/search; with only filters:
 * GET /listings/filters; otherwise GET /listings.
 */
export default function AllListingsPage() {
  const back = useBack();
  const [params, setParams] = useSearchParams();
  const browse = readBrowseParams(params);
  const feed = useListingsFeed(browseSource(browse));
  useDocumentTitle(browse.query ? `“${browse.query}” · All listings` : 'All listings');

  const range = { priceMin: browse.priceMin, priceMax: browse.priceMax };
  const hasPrice = browse.priceMin !== undefined || browse.priceMax !== undefined;
  const selectedBucket = PRICE_BUCKETS.find((b) => sameRange(rangeOf(b.id), range))?.id;
  const activeCount =
    browse.categories.length +
    (hasPrice ? 1 : 0) +
    browse.conditions.length +
    (browse.courseCode ? 1 : 0) +
    (browse.free ? 1 : 0);
  const sort: Sort = browse.sort ?? (browse.query ? 'relevance' : 'newest');
  const anyFilter = activeCount > 0 || browse.query !== '';

  // Filter changes replace the history entry, so Back leaves the page instead of undoing filters.
  const update = (next: URLSearchParams) =>
    setParams(next, { replace: true, preventScrollReset: true, flushSync: true });

  function toggleCategory(category: Category) {
    const next = new URLSearchParams(params);
    const chosen = browse.categories.includes(category)
      ? browse.categories.filter((c) => c !== category)
      : [...browse.categories, category];
    next.delete('categories');
    for (const c of chosen) next.append('categories', c);
    update(next);
  }

  function toggleCondition(condition: Condition) {
    const next = new URLSearchParams(params);
    const chosen = browse.conditions.includes(condition)
      ? browse.conditions.filter((c) => c !== condition)
      : [...browse.conditions, condition];
    next.delete('conditions');
    for (const c of chosen) next.append('conditions', c);
    update(next);
  }

  function setSort(value: Sort) {
    const next = new URLSearchParams(params);
    if (value === (browse.query ? 'relevance' : 'newest')) next.delete('sort');
    else next.set('sort', value);
    update(next);
  }

  function toggleFree() {
    const next = new URLSearchParams(params);
    if (browse.free) next.delete('free');
    else next.set('free', 'true');
    update(next);
  }

  function clearCourse() {
    const next = new URLSearchParams(params);
    next.delete('courseCode');
    update(next);
  }

  function togglePrice(id: PriceBucketId) {
    update(writePrice(params, selectedBucket === id ? {} : rangeOf(id)));
  }

  function clearPrice() {
    update(writePrice(params, {}));
  }

  function clearFilters() {
    const next = writePrice(params, {});
    next.delete('categories');
    next.delete('conditions');
    next.delete('courseCode');
    next.delete('free');
    update(next);
  }

  function clearQuery() {
    const next = new URLSearchParams(params);
    next.delete('query');
    update(next);
  }

  function clearEverything() {
    const next = writePrice(params, {});
    for (const key of ['categories', 'conditions', 'courseCode', 'query', 'free']) next.delete(key);
    update(next);
  }

  return (
    <PageContainer>
      <div className="mb-6 flex items-start justify-between gap-4 sm:items-end">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">All Listings</h1>
          <p className="mt-1.5 text-slate-600">
            {browse.query ? (
              <>
                Results for <span className="font-semibold break-words text-slate-900">“{browse.query}”</span>
                .
              </>
            ) : (
              'Everything students are selling right now.'
            )}
          </p>
          <Link
            to="/moving_out"
            className="mt-1 inline-block text-sm font-semibold text-orange-800 underline-offset-2 hover:underline"
          >
            Students moving out: must go soon →
          </Link>
        </div>
        <Button
          variant="secondary"
          className="shrink-0"
          onClick={back}
          leadingIcon={<ArrowLeftIcon size={18} />}
        >
          Back
        </Button>
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8">
        <aside aria-label="Filters">
          <FilterPanel
            activeCount={activeCount}
            onClear={clearFilters}
            resultCount={feed.isLoading ? undefined : feed.listings.length}
            moreResults={feed.hasNextPage}
          >
            <FreeFilter checked={browse.free} onToggle={toggleFree} />
            <CategoryFilter selected={browse.categories} onToggle={toggleCategory} />
            <PriceFilter
              mode="single"
              selected={selectedBucket ? [selectedBucket] : []}
              onToggle={togglePrice}
            />
            <ConditionFilter selected={browse.conditions} onToggle={toggleCondition} />
          </FilterPanel>
        </aside>

        <section aria-label="Listings" className="min-w-0">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <SortSelect value={sort} onChange={setSort} withRelevance={browse.query !== ''} />
            {anyFilter && <SaveSearchButton params={browse} />}
          </div>
          {anyFilter && (
            <div className="mb-4 flex flex-wrap items-center gap-2">
              <span className="text-sm text-slate-600">Active:</span>
              <ul className="flex flex-wrap gap-2" aria-label="Active filters">
                {browse.query && <FilterChip label={`“${browse.query}”`} onRemove={clearQuery} />}
                {browse.categories.map((c) => (
                  <FilterChip key={c} label={CATEGORY_LABELS[c]} onRemove={() => toggleCategory(c)} />
                ))}
                {browse.free && <FilterChip label="Free" onRemove={toggleFree} />}
                {hasPrice && <FilterChip label={rangeLabel(range)} onRemove={clearPrice} />}
                {browse.conditions.map((c) => (
                  <FilterChip key={c} label={CONDITION_LABELS[c]} onRemove={() => toggleCondition(c)} />
                ))}
                {browse.courseCode && (
                  <FilterChip label={`Course ${browse.courseCode}`} onRemove={clearCourse} />
                )}
              </ul>
              {activeCount + (browse.query ? 1 : 0) > 1 && (
                <button
                  type="button"
                  onClick={clearEverything}
                  className="rounded-lg px-2 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50"
                >
                  Clear all
                </button>
              )}
            </div>
          )}

          {browse.query && <CourseMatchCard query={browse.query} />}
          <ListingsResults
            feed={feed}
            label={browse.query ? `Search results for ${browse.query}` : 'All listings'}
            headingLevel={2}
            empty={() =>
              activeCount > 0 ? (
                <EmptyState
                  icon={<FilterIcon />}
                  title={MESSAGES.listingsFilteredEmpty}
                  description={
                    browse.query
                      ? `No listing matches “${browse.query}” with these filters.`
                      : MESSAGES.listingsFilteredEmptyHint
                  }
                  action={
                    browse.query ? (
                      <Button onClick={clearFilters}>{MESSAGES.searchAllCategories}</Button>
                    ) : (
                      <Button variant="secondary" onClick={clearFilters}>
                        Clear filters
                      </Button>
                    )
                  }
                />
              ) : browse.query ? (
                <EmptyState
                  icon={<SearchIcon />}
                  title={`Nothing matches “${browse.query}”`}
                  description="Try another spelling or a shorter search."
                  action={
                    <Button variant="secondary" onClick={clearQuery}>
                      Show all listings
                    </Button>
                  }
                />
              ) : (
                <EmptyState
                  icon={<SearchIcon />}
                  title={MESSAGES.allListingsEmpty}
                  description="New listings arrive all the time."
                  action={<ButtonLink to="/addlisting">+ Sell an item</ButtonLink>}
                />
              )
            }
          />
        </section>
      </div>
    </PageContainer>
  );
}
