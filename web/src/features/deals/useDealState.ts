import { useEffect, useMemo, useRef } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ChatMessage, DealWithReviews, Listing } from '@campus/contract';
import { chatKeys } from '../../api/chat';
import { ApiError } from '../../api/client';
import { dealKeys } from '../../api/deals';
import { getListing, listingKeys } from '../../api/listings';
import { queryClient } from '../../api/queryClient';
import { getDeals, trustKeys } from '../../api/trust';
import { forgetHandoffCodeIfEnded } from './handoffStore';
import { reduceCards } from './rules';

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/**
 * A deal event changes more than its card: the listing's status (Reserved badge, which buttons the
 * bar offers), the hand-off code and the deals list. When a system message newer than the ones
 * already seen arrives, those queries are refetched.
 */
function useSystemInvalidation(messages: readonly ChatMessage[]) {
  const seen = useRef<number | null>(null);
  useEffect(() => {
    let newest = seen.current ?? 0;
    const touched = new Set<number>();
    for (const m of messages) {
      if (m.kind !== 'system' || (seen.current !== null && m.id <= seen.current)) continue;
      newest = Math.max(newest, m.id);
      const listingId = m.offer?.listingId ?? m.meetup?.listingId ?? m.listingId;
      if (listingId !== null && listingId !== undefined) touched.add(listingId);
    }
    const first = seen.current === null;
    seen.current = newest;
    // The first history is what the queries were just loaded against: nothing to refresh.
    if (first || touched.size === 0) return;
    for (const id of touched) {
      void queryClient.invalidateQueries({ queryKey: listingKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: chatKeys.listing(id) });
      void queryClient.invalidateQueries({ queryKey: dealKeys.handoff(id) });
    }
    // Cards in browse and search show the Reserved badge.
    void queryClient.invalidateQueries({ queryKey: listingKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: trustKeys.deals });
  }, [messages]);
}

/**
 * The hand-off code saved on this device (handoffStore) is removed once a listing answer newer
 * than the code says the reservation is over: sold, released, lapsed, reserved for someone else or
 * the listing deleted.
 */
function useHandoffCodeCleanup(
  myId: number | null,
  listingId: number | null,
  listing: Listing | undefined,
  deleted: boolean,
  answeredAt: number,
) {
  useEffect(() => {
    if (myId === null || listingId === null || answeredAt === 0) return;
    if (!listing && !deleted) return;
    const mine = !deleted && listing?.status === 'RESERVED' && listing.reservedFor?.id === myId;
    forgetHandoffCodeIfEnded(myId, listingId, mine, answeredAt);
  }, [myId, listingId, listing, deleted, answeredAt]);
}

/**
 * What the deal parts of the chat need: the listing (full, for its status and price; null when it
 * was deleted), the current state of every card, and a deal with the peer still to rate.
 */
export function useDealState(
  listingId: number | null,
  messages: readonly ChatMessage[],
  peerId: number | null,
  myId: number | null,
) {
  const listingQuery = useQuery({
    queryKey: listingKeys.detail(listingId ?? 0),
    queryFn: ({ signal }) => getListing(listingId!, signal),
    enabled: listingId !== null,
    retry: (count, error) => !isNotFound(error) && count < 2,
  });
  const deleted = listingId === null || isNotFound(listingQuery.error);
  useHandoffCodeCleanup(
    myId,
    listingId,
    listingQuery.data,
    listingId !== null && deleted,
    Math.max(listingQuery.dataUpdatedAt, listingQuery.errorUpdatedAt),
  );
  const cards = useMemo(() => reduceCards(messages), [messages]);
  useSystemInvalidation(messages);

  // Only threads that saw a deal event ask for the deals list (most chats never do).
  const hasEvents = messages.some((m) => m.kind === 'system');
  const dealsQuery = useInfiniteQuery({
    queryKey: trustKeys.deals,
    queryFn: ({ pageParam, signal }) => getDeals(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    enabled: hasEvents && peerId !== null,
  });
  const threadListings = useMemo(() => new Set(messages.map((m) => m.listingId)), [messages]);
  const toRate: DealWithReviews | null =
    dealsQuery.data?.pages
      .flatMap((p) => p.items)
      .find(
        (d) =>
          d.counterpart.id === peerId &&
          d.canReview &&
          d.myReview === null &&
          threadListings.has(d.listingId),
      ) ?? null;

  return { listing: deleted ? null : (listingQuery.data ?? undefined), deleted, cards, toRate };
}
