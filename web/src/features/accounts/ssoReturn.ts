import { safeReturnPath } from '../../session/returnTo';

/**
 * Where a student was going when they tapped "Continue with … account": the trip through the
 * university loses the page's state, so this tab keeps the path until /sso/done reads it once.
 */
const KEY = 'cm.sso.next';

export function rememberSsoReturn(next: string | null): void {
  try {
    if (next) sessionStorage.setItem(KEY, next);
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage off (private mode): the dashboard it is.
  }
}

/** The saved path (only a path of this app), removed as it is read. */
export function takeSsoReturn(): string | null {
  try {
    const saved = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return safeReturnPath(saved);
  } catch {
    return null;
  }
}
