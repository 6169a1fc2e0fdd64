import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  formatDollars,
  isCategory,
  SELLING_MESSAGES,
  type Category,
  type WantedPost,
} from '@campus/contract';
import { serverMessageOf } from '../../api/client';
import { deleteWanted, fetchWantedPage, sellingKeys } from '../../api/selling';
import { useCurrentUser } from '../../session/useCurrentUser';
import { Button, ButtonLink } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { MegaphoneIcon, PlusIcon } from '../../ui/icons';
import { PageContainer } from '../../ui/PageContainer';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { LoadMore } from '../listings/components/LoadMore';
import { listedAgo, sellerShortName } from '../listings/format';
import { WantedForm } from './WantedForm';
import { useTimeBasis } from '../../ui/timeBasis';

/** The add-listing form, pre-filled from a wanted post ("I have this"). */
export function haveThisUrl(post: WantedPost): string {
  const p = new URLSearchParams({ name: post.title, category: post.category });
  if (post.courseCode) p.set('courseCode', post.courseCode);
  if (post.maxPrice !== null) p.set('price', String(post.maxPrice));
  return `/addlisting?${p.toString()}`;
}

function daysLeft(iso: string, now: number): string {
  const days = Math.ceil((Date.parse(iso) - now) / 86_400_000);
  if (!Number.isFinite(days) || days <= 0) return 'Expired';
  return days === 1 ? 'Expires tomorrow' : `${days} days left`;
}

function WantedCard({
  post,
  mine,
  onDelete,
  deleting,
}: {
  post: WantedPost;
  mine: boolean;
  onDelete: () => void;
  deleting: boolean;
}) {
  const basis = useTimeBasis();
  const titleId = `wanted-${post.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className={cx(
        'flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-card',
        !post.isOpen && 'bg-slate-50',
      )}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs font-semibold">
        <span className="rounded-full bg-brand-50 px-2 py-0.5 text-brand-800">
          {CATEGORY_LABELS[post.category] ?? post.category}
        </span>
        {post.courseCode && (
          <span className="rounded-full bg-sky-50 px-2 py-0.5 text-sky-800">{post.courseCode}</span>
        )}
        <span className={cx('ml-auto', post.isOpen ? 'text-slate-600' : 'text-slate-500')}>
          {post.isOpen ? daysLeft(post.expiresAt, basis.now) : 'Expired'}
        </span>
      </div>
      <h3 id={titleId} className="mt-2 text-lg leading-snug font-semibold break-words text-slate-900">
        {post.title}
      </h3>
      <p className="mt-0.5 text-sm font-semibold text-brand-800">
        {post.maxPrice !== null ? `Up to ${formatDollars(post.maxPrice)}` : 'Open to offers'}
      </p>
      {post.description && (
        <p className="mt-2 line-clamp-3 text-sm break-words whitespace-pre-line text-slate-700">
          {post.description}
        </p>
      )}
      <p className="mt-2 text-xs text-slate-600">
        {mine ? 'Posted by you' : `${sellerShortName(post.author)} is looking`} ·{' '}
        {listedAgo(post.createdAt, basis)}
      </p>
      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        {mine ? (
          <Button
            size="sm"
            variant="danger-outline"
            loading={deleting}
            onClick={onDelete}
            aria-describedby={titleId}
          >
            Delete
          </Button>
        ) : (
          post.isOpen && (
            <ButtonLink to={haveThisUrl(post)} size="sm" aria-describedby={titleId}>
              I have this
            </ButtonLink>
          )
        )}
      </div>
    </article>
  );
}

/**
 * /wanted_board (features.md §B "Wanted posts"; /wanted itself is the API): what students are looking for, newest first, by
 * category; "Mine" lists the student's own (open and expired) to delete. `?post=1` opens the form,
 * pre-filled from `category` and `courseCode` (the course page's "Post a wanted book").
 */
export default function WantedPage() {
  useDocumentTitle('Wanted');
  const [params, setParams] = useSearchParams();
  const client = useQueryClient();
  const { userId } = useCurrentUser();
  const mine = params.get('mine') === '1';
  const rawCategory = (params.get('category') ?? '').toUpperCase();
  const category: Category | null = isCategory(rawCategory) ? rawCategory : null;
  const categories = category && !mine ? [category] : [];
  const [formOpen, setFormOpen] = useState(params.get('post') === '1');
  const [prefill] = useState(() => ({
    category: params.get('category') ?? undefined,
    courseCode: params.get('courseCode') ?? undefined,
  }));
  const [deleting, setDeleting] = useState<number | null>(null);

  const query = useInfiniteQuery({
    queryKey: mine ? sellingKeys.myWanted : sellingKeys.wanted(categories),
    queryFn: ({ pageParam, signal }) =>
      fetchWantedPage(mine ? 'self' : 'open', categories, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: (previous) => previous,
  });
  const posts = query.data?.pages.flatMap((p) => p.items) ?? [];

  const update = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    next.delete('post');
    next.delete('courseCode');
    change(next);
    setParams(next, { replace: true, preventScrollReset: true });
  };

  async function remove(post: WantedPost) {
    setDeleting(post.id);
    try {
      await deleteWanted(post.id);
      await client.invalidateQueries({ queryKey: sellingKeys.wantedAll });
      toast.success('Wanted post deleted');
    } catch (error) {
      toast.error(serverMessageOf(error) ?? 'Could not delete it. Please try again.');
    } finally {
      setDeleting(null);
    }
  }

  const tabClass = (active: boolean) =>
    cx(
      'inline-flex h-10 items-center rounded-lg px-4 text-sm font-semibold',
      active ? 'bg-white text-brand-800 shadow-sm' : 'text-slate-700 hover:text-slate-900',
    );

  return (
    <PageContainer>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Wanted</h1>
          <p className="mt-1.5 text-slate-600">
            What students are looking for. Have it? Tap “I have this” to list it in seconds.
          </p>
        </div>
        {!formOpen && (
          <Button onClick={() => setFormOpen(true)} leadingIcon={<PlusIcon size={18} />}>
            Post a wanted item
          </Button>
        )}
      </div>

      {formOpen && (
        <div className="mb-8">
          <WantedForm
            prefill={prefill}
            onCancel={() => setFormOpen(false)}
            onPosted={() => {
              setFormOpen(false);
              void client.invalidateQueries({ queryKey: sellingKeys.wantedAll });
              update((next) => next.set('mine', '1'));
            }}
          />
        </div>
      )}

      <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <nav aria-label="Wanted posts" className="inline-flex w-fit rounded-xl bg-slate-100 p-1">
          <button
            type="button"
            aria-pressed={!mine}
            className={tabClass(!mine)}
            onClick={() => update((next) => next.delete('mine'))}
          >
            Everyone
          </button>
          <button
            type="button"
            aria-pressed={mine}
            className={tabClass(mine)}
            onClick={() => update((next) => next.set('mine', '1'))}
          >
            My wanted posts
          </button>
        </nav>
        {!mine && (
          <div className="flex items-center gap-2">
            <label htmlFor="wanted-category" className="text-sm font-medium text-slate-700">
              Show
            </label>
            <select
              id="wanted-category"
              value={category ?? ''}
              onChange={(e) =>
                update((next) => {
                  if (e.target.value) next.set('category', e.target.value);
                  else next.delete('category');
                })
              }
              className="h-10 rounded-xl border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 shadow-sm"
            >
              <option value="">All categories</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {CATEGORY_LABELS[c]}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>

      {query.isPending ? (
        <div role="status" className="flex justify-center py-12 text-brand-700">
          <Spinner label="Loading wanted posts…" />
        </div>
      ) : query.isError && posts.length === 0 ? (
        <ErrorState title="We could not load wanted posts right now." onRetry={() => void query.refetch()} />
      ) : posts.length === 0 ? (
        <EmptyState
          icon={<MegaphoneIcon />}
          title={
            mine
              ? SELLING_MESSAGES.wantedMineEmpty
              : category
                ? `Nobody is looking for ${CATEGORY_LABELS[category].toLowerCase()} right now.`
                : SELLING_MESSAGES.wantedEmpty
          }
          action={
            !formOpen && (
              <Button onClick={() => setFormOpen(true)} leadingIcon={<PlusIcon size={18} />}>
                Post a wanted item
              </Button>
            )
          }
        />
      ) : (
        <>
          <ul
            aria-label={mine ? 'Your wanted posts' : 'Wanted posts'}
            className={cx(
              'grid gap-3 sm:grid-cols-2 lg:grid-cols-3 lg:gap-4',
              query.isPlaceholderData && 'opacity-60',
            )}
          >
            {posts.map((post) => (
              <li key={post.id} className="min-w-0">
                <WantedCard
                  post={post}
                  mine={post.author.id === userId}
                  deleting={deleting === post.id}
                  onDelete={() => void remove(post)}
                />
              </li>
            ))}
          </ul>
          <LoadMore
            hasNextPage={query.hasNextPage}
            isFetchingNextPage={query.isFetchingNextPage}
            onLoadMore={() => void query.fetchNextPage()}
            auto={!query.isFetchNextPageError}
          />
        </>
      )}
    </PageContainer>
  );
}
