import { useEffect, useRef } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { AppNotification, NotificationType } from '@campus/contract';
import { listNotifications, markNotificationsRead, notificationKeys } from '../../../api/notifications';
import { Button } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { ErrorState } from '../../../ui/ErrorState';
import { BellIcon, SettingsIcon } from '../../../ui/icons';
import { PageContainer, PageHeader } from '../../../ui/PageContainer';
import { Spinner } from '../../../ui/Spinner';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { cx } from '../../../ui/cx';
import { useTimeBasis, zoneOption, type TimeBasis } from '../../../ui/timeBasis';

const GROUP: Record<NotificationType, string> = {
  OFFER_RECEIVED: 'Offer',
  OFFER_ANSWERED: 'Offer',
  MEETUP_PROPOSED: 'Meet-up',
  MEETUP_ANSWERED: 'Meet-up',
  MEETUP_REMINDER: 'Reminder',
  DEAL_CONFIRMED: 'Deal',
  REVIEW_REQUEST: 'Review',
  REVIEW_REVEALED: 'Review',
  SAVED_SEARCH_MATCH: 'Saved search',
  WANTED_MATCH: 'Wanted',
  PRICE_DROP: 'Price drop',
  LISTING_REMOVED: 'Moderation',
  LISTING_EXPIRING: 'Expiring',
  CLAIMS_READY: 'Free item',
  CLAIM_WON: 'Free item',
  CLAIM_LOST: 'Free item',
  HOLD_REMINDER: 'Held item',
};

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
function ago(iso: string, basis: TimeBasis): string {
  const seconds = Math.round((Date.parse(iso) - basis.now) / 1000);
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 7],
    ['week', 5],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return relative.format(value, unit);
    value = Math.round(value / size);
  }
  return new Date(iso).toLocaleDateString(basis.locale, zoneOption(basis));
}

function Item({ n }: { n: AppNotification }) {
  const basis = useTimeBasis();
  const unread = n.readAt === null;
  return (
    <li>
      <Link
        to={n.link}
        className={cx(
          'flex gap-3 rounded-xl px-4 py-3 transition-colors hover:bg-slate-50 focus-visible:bg-slate-50',
          unread && 'bg-brand-50/60',
        )}
      >
        <span
          aria-hidden="true"
          className={cx('mt-2 h-2.5 w-2.5 shrink-0 rounded-full', unread ? 'bg-red-600' : 'bg-transparent')}
        />
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="text-xs font-semibold tracking-wide text-brand-700 uppercase">
              {GROUP[n.type]}
            </span>
            <time dateTime={n.createdAt} className="text-xs text-slate-600">
              {ago(n.createdAt, basis)}
            </time>
          </span>
          <span className="mt-0.5 block font-semibold text-slate-900">
            {n.title}
            {unread && <span className="sr-only"> (new)</span>}
          </span>
          <span className="mt-0.5 block text-sm text-slate-700">{n.body}</span>
        </span>
      </Link>
    </li>
  );
}

/** The notification centre: newest first, paged; opening it marks everything shown as read. */
export default function NotificationsPage() {
  useDocumentTitle('Notifications');
  const query = useInfiniteQuery({
    queryKey: notificationKeys.list(),
    queryFn: ({ pageParam, signal }) => listNotifications(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
  const items = query.data?.pages.flatMap((p) => p.notifications) ?? [];
  const newest = items[0]?.id;
  const marked = useRef(0);
  const hasUnread = (query.data?.pages[0]?.unreadCount ?? 0) > 0;

  useEffect(() => {
    if (newest === undefined || !hasUnread || newest <= marked.current) return;
    marked.current = newest;
    // The list keeps its "new" marks until the next visit; the bell drops at once (live frame).
    markNotificationsRead(newest).catch(() => {
      marked.current = 0;
    });
  }, [newest, hasUnread]);

  return (
    <PageContainer width="default">
      <PageHeader
        title="Notifications"
        description="Offers, meet-ups, matches for your searches and price drops."
        actions={
          <Link
            to="/settings/notifications"
            className="inline-flex h-10 items-center gap-2 rounded-xl border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50"
          >
            <SettingsIcon size={18} /> Settings
          </Link>
        }
      />
      {query.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner />
        </div>
      ) : query.isError ? (
        <ErrorState title="Could not load your notifications" onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<BellIcon />}
          title="Nothing yet"
          description="Save a search or post what you want, and we will tell you when a match is listed."
        />
      ) : (
        <>
          <ul
            className="divide-y divide-slate-100 rounded-2xl bg-white p-1.5 shadow-card"
            aria-label="Notifications"
          >
            {items.map((n) => (
              <Item key={n.id} n={n} />
            ))}
          </ul>
          {query.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                onClick={() => void query.fetchNextPage()}
                loading={query.isFetchingNextPage}
              >
                Show older
              </Button>
            </div>
          )}
        </>
      )}
    </PageContainer>
  );
}
