import { queryClient } from '../api/queryClient';
import { forgetAllHandoffCodes } from '../features/deals/handoffStore';
import { clearToken } from './token';

/** Spec §4: logout removes the token (and the hand-off codes kept on the device) and reloads to /. */
export function logout(): void {
  clearToken();
  queryClient.clear();
  forgetAllHandoffCodes();
  window.location.assign('/');
}
