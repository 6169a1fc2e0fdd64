export { TOKEN_KEY, getToken, setToken, clearToken, subscribeToken, useToken } from './token';
export { decodeJwt, isTokenValid, getSessionClaims, type DecodedClaims } from './jwt';
export { RequireAuth } from './RequireAuth';
export { logout } from './logout';
export { useCurrentUser, currentUserQueryKey, type CurrentUser } from './useCurrentUser';
export { useIsLoggedIn } from './navigation';
export { fromPathOf } from './returnTo';
