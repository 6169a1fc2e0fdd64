import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { dealKeys, getHandoffCode } from '../../api/deals';
import { forgetHandoffCode, readHandoffCode, saveHandoffCode } from './handoffStore';

/** The server refused the code: the reservation is over or not this student's. */
export function isHandoffRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/**
 * The reserved buyer's hand-off code: what this device saved, shown at once (offline too), then
 * checked with the server whenever there is a connection. Fetched as soon as the buyer's chat
 * offers "Show hand-off code", so the code is on the phone before the meet-up; a refusal (403, 404,
 * 409) removes the saved copy.
 */
export function useHandoffCode(
  listingId: number,
  userId: number | null,
  where: { roomId: string | null; listingName: string | null },
  enabled = true,
) {
  const saved = userId !== null ? readHandoffCode(userId, listingId) : null;
  const query = useQuery({
    queryKey: dealKeys.handoff(listingId),
    queryFn: async ({ signal }) => {
      try {
        const answer = await getHandoffCode(listingId, signal);
        if (userId !== null) saveHandoffCode(userId, { code: answer.code, listingId, ...where });
        return answer;
      } catch (error) {
        if (userId !== null && isHandoffRefused(error)) forgetHandoffCode(userId, listingId);
        throw error;
      }
    },
    enabled: enabled && userId !== null,
    retry: false,
    initialData: saved ? { code: saved.code } : undefined,
    // The saved copy is shown but always checked again when there is a connection.
    initialDataUpdatedAt: 0,
  });
  const refused = isHandoffRefused(query.error);
  return {
    code: refused ? null : (query.data?.code ?? null),
    refused,
    /** No code yet, and none can come without a connection (the query waits for one). */
    waitingForNetwork: query.data === undefined && query.fetchStatus === 'paused',
    error: query.data === undefined || refused ? query.error : null,
  };
}
