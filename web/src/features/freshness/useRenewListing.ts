import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { Listing } from '@campus/contract';
import { serverMessageOf } from '../../api/client';
import { renewListing } from '../../api/freshness';
import { listingKeys } from '../../api/listings';
import { toast } from '../../ui/toast';
import { isListingData, patchListingEverywhere } from '../listings/cache';

/**
 * One-tap renewal (features.md §H): POST /listing/{id}/renew, then the answer replaces the listing
 * in every cached view (My Listings, its page), and browse lists refetch when next visited.
 */
export function useRenewListing() {
  const client = useQueryClient();
  const [renewing, setRenewing] = useState<number | null>(null);
  const renew = useCallback(
    async (listing: Listing): Promise<void> => {
      setRenewing(listing.id);
      try {
        const renewed = await renewListing(listing.id);
        if (isListingData(renewed)) patchListingEverywhere(client, listing.id, (l) => ({ ...l, ...renewed }));
        void client.invalidateQueries({ queryKey: listingKeys.lists(), refetchType: 'none' });
        toast.success('Renewed: it is listed again');
      } catch (error) {
        toast.error(serverMessageOf(error) ?? 'We could not renew this listing. Please try again.');
      } finally {
        setRenewing(null);
      }
    },
    [client],
  );
  return { renew, renewing };
}
