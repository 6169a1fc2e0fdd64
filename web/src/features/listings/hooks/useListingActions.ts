import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { MESSAGES, TIMINGS, type Listing } from '@campus/contract';
import { serverMessageOf } from '../../../api/client';
import { deleteListing, listingKeys, toggleListingSold } from '../../../api/listings';
import { toast } from '../../../ui/toast';
import { isListingData, patchListingEverywhere } from '../cache';

/**
 * Owner actions shared by /personalListings and /single_listing (spec §2, §4):
 * - toggleSold flips the listing at once in every cached view, then calls PUT /listings/sold/{id};
 *   on failure the flip is reverted and an error toast shown.
 * - removeConfirmed calls DELETE /listing/{id} and drops it (the screens confirm inline first).
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

  /**
   * Deletes a listing the student already confirmed (with InlineConfirm).
   * Resolves true when the listing was deleted.
   */
  const removeConfirmed = useCallback(
    async (listing: Listing): Promise<boolean> => {
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

  /** Asks with the 6-second confirmation toast first (kept for callers without an inline confirm). */
  const remove = useCallback(
    async (listing: Listing): Promise<boolean> => {
      const confirmed = await toast.confirm(MESSAGES.deleteConfirm, {
        confirmLabel: 'Delete',
        cancelLabel: 'Cancel',
        duration: TIMINGS.deleteConfirmMs,
      });
      return confirmed ? removeConfirmed(listing) : false;
    },
    [removeConfirmed],
  );

  return { toggleSold, remove, removeConfirmed, isPending: (id: number) => pending.has(id) };
}
