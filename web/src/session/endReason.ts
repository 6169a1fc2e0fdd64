/**
 * Why this device's session ended without the student logging out: a request
 * refused (401) while the stored token had not expired means the server revoked it, which happens
 * when the password was changed or reset on another device. /login then says so. Kept in
 * sessionStorage: the tab may be reloaded (or reopened on a link) between the refusal and /login.
 */
export type SessionEndReason = 'password-changed';

const KEY = 'sessionEndReason';

export function setSessionEndReason(value: SessionEndReason | null): void {
  try {
    if (value) window.sessionStorage.setItem(KEY, value);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage unavailable (private mode quotas): the message is a courtesy, not a rule.
  }
}

export function sessionEndReason(): SessionEndReason | null {
  try {
    return window.sessionStorage.getItem(KEY) === 'password-changed' ? 'password-changed' : null;
  } catch {
    return null;
  }
}
