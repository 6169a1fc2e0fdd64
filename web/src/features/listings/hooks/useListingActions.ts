import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { MESSAGES, TIMINGS, type Listing } from '@campus/contract';
import { serverMessageOf } from '../../../api/client';
import { deleteListing, listingKeys, toggleListingSold, type ListingsPage } from '../../../api/listings';
import { toast } from '../../../ui/toast';
import type { ListingsInfiniteData } from './useListingsFeed';

function isInfinite(data: unknown): data is ListingsInfiniteData {
  return typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages);
}

function isListingData(data: unknown): data is Listing {
  return typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'number';
}

/** Applies `change` to one listing in every cached list and detail (returns null to remove it). */
function patchListingEverywhere(
  client: QueryClient,
  id: number,
  change: (listing: Listing) => Listing | null,
): void {
  client.setQueriesData<unknown>({ queryKey: listingKeys.all }, (data: unknown) => {
    if (isInfinite(data)) {
      let touched = false;
      const pages: ListingsPage[] = data.pages.map((page) => {
        if (!page.items.some((l) => l.id === id)) return page;
        touched = true;
        const items: Listing[] = [];
        for (const item of page.items) {
          if (item.id !== id) items.push(item);
          else {
            const next = change(item);
            if (next) items.push(next);
          }
        }
        return { ...page, items };
      });
      return touched ? { ...data, pages } : data;
    }
    if (isListingData(data) && data.id === id) return change(data) ?? data;
    return data;
  });
}

/**
 * Owner actions shared by /personalListings and /single_listing (spec §2, §4):
 * - toggleSold flips the listing at once in every cached view, then calls PUT /listings/sold/{id};
 *   on failure the flip is reverted and an error toast shown.
 * - remove asks with the 6-second confirmation toast, then DELETE /listing/{id} and drops it.
 */
export function useListingActions() {
  const client = useQueryClient();
  const [pending, setPending] = useState<ReadonlySet<number>>(() => new Set());

  const mark = useCallback((id: number, on: boolean) => {
    setPending((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const toggleSold = useCallback(
    async (listing: Listing): Promise<void> => {
      const wanted = !listing.isSold;
      mark(listing.id, true);
      patchListingEverywhere(client, listing.id, (l) => ({ ...l, isSold: wanted }));
      try {
        const updated = await toggleListingSold(listing.id);
        const confirmed = isListingData(updated) ? updated : { ...listing, isSold: wanted };
        patchListingEverywhere(client, listing.id, (l) => ({ ...l, ...confirmed }));
        // Browse lists show only unsold listings: refresh them when next visited.
        void client.invalidateQueries({ queryKey: listingKeys.lists(), refetchType: 'none' });
        toast.success(wanted ? 'Marked as sold' : 'Marked as unsold: it is back on the market');
      } catch (error) {
        console.error('Failed to toggle sold', error);
        patchListingEverywhere(client, listing.id, (l) => ({ ...l, isSold: !wanted }));
        toast.error(serverMessageOf(error) ?? MESSAGES.listingSoldToggleFailed);
      } finally {
        mark(listing.id, false);
      }
    },
    [client, mark],
  );

  /** Resolves true when the listing was deleted. */
  const remove = useCallback(
    async (listing: Listing): Promise<boolean> => {
      const confirmed = await toast.confirm(MESSAGES.deleteConfirm, {
        confirmLabel: 'Delete',
        cancelLabel: 'Cancel',
        duration: TIMINGS.deleteConfirmMs,
      });
      if (!confirmed) return false;
      mark(listing.id, true);
      try {
        await deleteListing(listing.id);
        patchListingEverywhere(client, listing.id, () => null);
        client.removeQueries({ queryKey: listingKeys.detail(listing.id), exact: true });
        void client.invalidateQueries({ queryKey: listingKeys.lists(), refetchType: 'none' });
        toast.success(MESSAGES.listingDeleted);
        return true;
      } catch (error) {
        console.error('Failed to delete listing', error);
        toast.error(serverMessageOf(error) ?? MESSAGES.listingDeleteFailed);
        return false;
      } finally {
        mark(listing.id, false);
      }
    },
    [client, mark],
  );

  return { toggleSold, remove, isPending: (id: number) => pending.has(id) };
}
