import { useQuery } from '@tanstack/react-query';
import type { CampusInfo } from '@campus/contract';
import { getCampusInfo } from './accounts';

export const campusQueryKey = ['public', 'campus'] as const;

/** GET /public/campus, cached for the session. `data` is undefined while loading or on failure. */
export function useCampusInfo() {
  return useQuery<CampusInfo>({
    queryKey: campusQueryKey,
    queryFn: ({ signal }) => getCampusInfo(signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/** "MSU" or a neutral fallback while unknown. */
export function campusLabel(info: CampusInfo | undefined): string {
  return info?.campusName?.trim() || 'University';
}
