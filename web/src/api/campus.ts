import { useQuery } from '@tanstack/react-query';
import type { CampusInfo, CampusSummary } from '@campus/contract';
import { getSessionClaims } from '../session/jwt';
import { useToken } from '../session/token';
import { getCampuses, getCampusInfo } from './accounts';

/**
 * The campus of a visit depends on who is logged in (features.md §E): a visitor gets the Host's
 * or the default campus, a student their own. The student is part of the key, so logging in (or
 * out, or as someone else in another tab) asks again instead of keeping the previous answer.
 */
export const campusQueryKey = (userId: number | null) => ['public', 'campus', userId] as const;

export const campusesQueryKey = ['public', 'campuses'] as const;

/** GET /public/campus for this visit. `data` is undefined while loading or on failure. */
export function useCampusInfo() {
  const userId = getSessionClaims(useToken())?.uid ?? null;
  return useQuery<CampusInfo>({
    queryKey: campusQueryKey(userId),
    queryFn: ({ signal }) => getCampusInfo(signal),
    // Campuses change only when the deployment's configuration does (a restart).
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/** GET /public/campuses: every open campus, in name order. */
export function useCampuses() {
  return useQuery<CampusSummary[]>({
    queryKey: campusesQueryKey,
    queryFn: ({ signal }) => getCampuses(signal),
    staleTime: 10 * 60_000,
    retry: 1,
  });
}

/** The campus's name ("MSU", "University of Washington"), or a neutral word while unknown. */
export function campusLabel(info: CampusInfo | undefined): string {
  return (info?.name ?? info?.campusName)?.trim() || 'University';
}
