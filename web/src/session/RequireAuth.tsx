import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isTokenValid } from './jwt';
import { useToken } from './token';

/**
 * Spec §2 guard: shows the protected screen only with a decodable token whose `exp` is in the
 * future; otherwise replaces the history entry with /login, passing the requested location as `from`.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useToken();
  const location = useLocation();
  if (!isTokenValid(token)) {
    return <Navigate to="/login" replace state={{ from: location }} />;
  }
  return <>{children}</>;
}
