import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isTokenValid } from './jwt';
import { useToken } from './token';

/**
 * Spec §2 guard: shows the protected screen only with a decodable token whose `exp` is in the
 * future; otherwise replaces the history entry with /login, passing the requested location as `from`
 * (or shows `visitor`'s screen for the path, when it has one).
 */
export function RequireAuth({
  children,
  visitor,
}: {
  children: ReactNode;
  /** What someone not logged in sees at this path instead of the login screen (a shared listing). */
  visitor?: (pathname: string) => ReactNode;
}) {
  const token = useToken();
  const location = useLocation();
  if (!isTokenValid(token)) {
    const screen = visitor?.(location.pathname);
    if (screen) return <>{screen}</>;
    return <Navigate to="/login" replace state={{ from: location }} />;
  }
  return <>{children}</>;
}
