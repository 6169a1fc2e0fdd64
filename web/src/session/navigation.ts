import { isTokenValid } from './jwt';
import { useToken } from './token';

/** True while a valid token is stored (re-renders on login/logout in any tab). */
export function useIsLoggedIn(): boolean {
  return isTokenValid(useToken());
}

const PUBLIC_PATHS = new Set(['/', '/signup', '/login', '/resetPass', '/verify']);

/** Screens anyone may open (no login guard). */
export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.has(pathname);
}

/**
 * Where to go after login: the `from` of the navigation state (a Location from the guard, or a
 * path string from the landing page) when it is a protected screen; otherwise null.
 */
export function fromPathOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const from: unknown = (state as { from?: unknown }).from;
  let path: string | null = null;
  if (typeof from === 'string') {
    path = from;
  } else if (typeof from === 'object' && from !== null) {
    const loc = from as { pathname?: unknown; search?: unknown; hash?: unknown };
    if (typeof loc.pathname === 'string') {
      path =
        loc.pathname +
        (typeof loc.search === 'string' ? loc.search : '') +
        (typeof loc.hash === 'string' ? loc.hash : '');
    }
  }
  if (!path || !path.startsWith('/') || path.startsWith('//')) return null;
  const pathname = path.split(/[?#]/)[0] ?? path;
  return PUBLIC_PATHS.has(pathname) ? null : path;
}
