import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { SELLING_MESSAGES, type Listing } from '@campus/contract';
import { serverMessageOf } from '../../../api/client';
import { listingKeys, setListingSaved } from '../../../api/listings';
import { toast } from '../../../ui/toast';
import { patchListingEverywhere } from '../cache';

/**
 * The heart (features.md §B "Favourites"): flips `savedByMe` at once in every cached view, then
 * PUT/DELETE /listings/{id}/save; on failure the flip is rolled back and an error toast shown.
 * Quick repeated taps settle on the last one: an older answer never overwrites a newer tap.
 */
export function useSaveListing() {
  const client = useQueryClient();
  const latest = useRef(new Map<number, number>());

  return useCallback(
    async (listing: Listing, saved: boolean): Promise<void> => {
      const tap = (latest.current.get(listing.id) ?? 0) + 1;
      latest.current.set(listing.id, tap);
      patchListingEverywhere(client, listing.id, (l) => ({ ...l, savedByMe: saved }));
      try {
        await setListingSaved(listing.id, saved);
        // The Saved page refetches when next shown.
        void client.invalidateQueries({ queryKey: [...listingKeys.lists(), { kind: 'saved' }] });
      } catch (error) {
        console.error('Failed to save the listing', error);
        if (latest.current.get(listing.id) === tap)
          patchListingEverywhere(client, listing.id, (l) => ({ ...l, savedByMe: !saved }));
        toast.error(serverMessageOf(error) ?? SELLING_MESSAGES.saveFailed);
      }
    },
    [client],
  );
}
