import { useQuery } from '@tanstack/react-query';
import type { Listing } from '@campus/contract';
import { getListing, listingKeys } from '../../../api/listings';

/**
 * GET /listing/{id}. `initial` (the listing from navigation state) is shown at once and refreshed
 * immediately from the server.
 */
export function useListing(id: number | null, initial?: Listing) {
  return useQuery({
    queryKey: listingKeys.detail(id ?? 0),
    queryFn: ({ signal }) => getListing(id ?? 0, signal),
    enabled: id !== null,
    initialData: initial,
    initialDataUpdatedAt: initial ? 0 : undefined,
  });
}
