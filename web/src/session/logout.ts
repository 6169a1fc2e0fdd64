import { queryClient } from '../api/queryClient';
import { clearToken } from './token';

/** Spec §4: logout removes the token and reloads to /. */
export function logout(): void {
  clearToken();
  queryClient.clear();
  window.location.assign('/');
}
