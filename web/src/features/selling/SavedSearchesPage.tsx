import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  CATEGORY_LABELS,
  CONDITION_LABELS,
  SELLING_LIMITS,
  SELLING_MESSAGES,
  type SavedSearch,
} from '@campus/contract';
import { serverMessageOf } from '../../api/client';
import { deleteSavedSearch, listSavedSearches, sellingKeys } from '../../api/selling';
import { Button, ButtonLink } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { BookmarkIcon, SearchIcon } from '../../ui/icons';
import { PageContainer, PageHeader } from '../../ui/PageContainer';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { rangeLabel } from '../listings/params';

/** The /all_listings URL that runs a saved search again. */
export function savedSearchUrl(s: SavedSearch): string {
  const p = new URLSearchParams();
  if (s.query) p.set('query', s.query);
  for (const c of s.categories) p.append('categories', c);
  if (s.priceMin !== null) p.set('priceMin', String(s.priceMin));
  if (s.priceMax !== null) p.set('priceMax', String(s.priceMax));
  for (const c of s.conditions) p.append('conditions', c);
  if (s.courseCode) p.set('courseCode', s.courseCode);
  return `/all_listings?${p.toString()}`;
}

/** "“desk lamp” · Lifestyle · Up to $15 · Like new". */
export function describeSearch(s: SavedSearch): { title: string; details: string[] } {
  const details: string[] = [];
  for (const c of s.categories) details.push(CATEGORY_LABELS[c] ?? c);
  if (s.priceMin !== null || s.priceMax !== null)
    details.push(rangeLabel({ priceMin: s.priceMin ?? undefined, priceMax: s.priceMax ?? undefined }));
  for (const c of s.conditions) details.push(CONDITION_LABELS[c] ?? c);
  if (s.courseCode) details.push(`Course ${s.courseCode}`);
  const title = s.query ? `“${s.query}”` : (details.shift() ?? 'Everything');
  return { title, details };
}

/**
 * /saved_searches (features.md §B "Saved searches"): the student's saved searches (at most 20), each
 * opens the results again or is deleted. New matches are announced by the notifications feature.
 */
export default function SavedSearchesPage() {
  useDocumentTitle('Saved searches');
  const client = useQueryClient();
  const query = useQuery({
    queryKey: sellingKeys.searches,
    queryFn: ({ signal }) => listSavedSearches(signal),
  });
  const [deleting, setDeleting] = useState<number | null>(null);

  async function remove(s: SavedSearch) {
    setDeleting(s.id);
    try {
      await deleteSavedSearch(s.id);
      client.setQueryData<SavedSearch[]>(sellingKeys.searches, (list) => list?.filter((x) => x.id !== s.id));
      toast.success('Saved search deleted');
    } catch (error) {
      toast.error(serverMessageOf(error) ?? 'Could not delete the saved search. Please try again.');
    } finally {
      setDeleting(null);
    }
  }

  const list = query.data ?? [];
  return (
    <PageContainer width="default">
      <PageHeader
        title="Saved searches"
        description={`Keep up to ${SELLING_LIMITS.savedSearchesMax} searches and hear when something new matches.`}
        actions={
          <ButtonLink to="/saved" variant="secondary">
            Saved listings
          </ButtonLink>
        }
      />
      {query.isPending ? (
        <div role="status" className="flex justify-center py-12 text-brand-700">
          <Spinner label="Loading saved searches…" />
        </div>
      ) : query.isError ? (
        <ErrorState title="We could not load your saved searches." onRetry={() => void query.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<BookmarkIcon />}
          title={SELLING_MESSAGES.savedSearchesEmpty}
          description="Use the search box or filters, then choose “Save this search”."
          action={<ButtonLink to="/all_listings">Browse listings</ButtonLink>}
        />
      ) : (
        <ul aria-label="Your saved searches" className="space-y-3">
          {list.map((s) => {
            const { title, details } = describeSearch(s);
            return (
              <li
                key={s.id}
                className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-card sm:flex-row sm:items-center"
              >
                <span className="hidden h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 sm:flex">
                  <SearchIcon size={20} />
                </span>
                <div className="min-w-0 flex-1">
                  <h2 className="font-semibold break-words text-slate-900">
                    <Link to={savedSearchUrl(s)} className="hover:text-brand-800 hover:underline">
                      {title}
                    </Link>
                  </h2>
                  {details.length > 0 && (
                    <p className="mt-0.5 text-sm text-slate-600">{details.join(' · ')}</p>
                  )}
                </div>
                <div className="flex gap-2">
                  <ButtonLink
                    to={savedSearchUrl(s)}
                    size="sm"
                    variant="secondary"
                    aria-label={`Show results for ${title}`}
                  >
                    Show results
                  </ButtonLink>
                  <Button
                    size="sm"
                    variant="danger-outline"
                    loading={deleting === s.id}
                    onClick={() => void remove(s)}
                    aria-label={`Delete saved search ${title}`}
                  >
                    Delete
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </PageContainer>
  );
}
