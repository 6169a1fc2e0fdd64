import { isTokenValid } from './jwt';
import { useToken } from './token';

/** True while a valid token is stored (re-renders on login/logout in any tab). */
export function useIsLoggedIn(): boolean {
  return isTokenValid(useToken());
}

const PUBLIC_PATHS = new Set(['/', '/signup', '/login', '/resetPass', '/verify', '/sso/done']);

/** Screens anyone may open (no login guard). */
export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.has(pathname);
}
