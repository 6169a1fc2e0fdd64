import { useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@campus/contract';
import { getUserInfo } from '../api/accounts';
import { getSessionClaims } from './jwt';
import { useToken } from './token';

export interface CurrentUser {
  /** GET /users/info answer once loaded. */
  user: UserInfo | null;
  /** My user id: from the token's `uid` claim at once, confirmed by /users/info. */
  userId: number | null;
  /** My e-mail (token `sub`). */
  email: string | null;
  isLoading: boolean;
  error: Error | null;
}

export const currentUserQueryKey = (email: string | null) => ['users', 'info', email] as const;

/** The logged-in student (null fields when logged out). */
export function useCurrentUser(): CurrentUser {
  const token = useToken();
  const claims = getSessionClaims(token);
  const email = claims?.sub ?? null;
  const query = useQuery({
    queryKey: currentUserQueryKey(email),
    queryFn: ({ signal }) => getUserInfo(email ?? '', signal),
    enabled: email !== null,
    staleTime: 5 * 60_000,
  });
  return {
    user: query.data ?? null,
    userId: query.data?.id ?? claims?.uid ?? null,
    email,
    isLoading: email !== null && query.isPending,
    error: query.error,
  };
}

/**
 * My user id from the token's `uid` claim (the claim /users/info confirms), without a query of its
 * own: for what a page draws many times (listing cards, their badges) and the app's chrome. Each
 * `useCurrentUser` is a query observer with its own staleness timer; a dashboard drew dozens of
 * them while it hydrated, a long task on a phone (docs/performance.md).
 */
export function useMyUserId(): number | null {
  return getSessionClaims(useToken())?.uid ?? null;
}
