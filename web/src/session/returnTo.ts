/**
 * Where a student goes after logging in: a shared listing's visitor back to it, through sign-up and
 * the e-mailed code. Its own module, so the checks load with the account screens, not with every
 * page's first visit.
 */
import { isPublicPath } from './navigation';

/** The query parameter that carries where to go after logging in (or signing up and verifying). */
export const NEXT_PARAM = 'next';

/**
 * A place in this app to return to after login: a path on this origin (`/single_listing/12?x#y`),
 * never another site (`https://…`, `//evil.example`, `/\\evil.example`, `javascript:`), never a
 * public screen (login, sign-up: nowhere to return to). Null when it is not one.
 */
export function safeReturnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 2048) return null;
  // `//host` and `/\host` are other sites to a browser; control characters are stripped by URL parsers.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  for (const ch of raw) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || ch === '\\') return null;
  }
  const base = 'https://return.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  return isPublicPath(url.pathname) ? null : url.pathname + url.search + url.hash;
}

/** `?next=…` for a return path (empty without one), for links between login, sign-up and verify. */
export function nextQuery(path: string | null): string {
  return path ? `?${NEXT_PARAM}=${encodeURIComponent(path)}` : '';
}

/**
 * Where to go after login: the `from` of the navigation state (a Location from the guard, or a
 * path string from the landing page or a shared listing) when it is a protected screen of this
 * app; otherwise null.
 */
export function fromPathOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const from: unknown = (state as { from?: unknown }).from;
  if (typeof from === 'string') return safeReturnPath(from);
  if (typeof from === 'object' && from !== null) {
    const loc = from as { pathname?: unknown; search?: unknown; hash?: unknown };
    if (typeof loc.pathname === 'string') {
      return safeReturnPath(
        loc.pathname +
          (typeof loc.search === 'string' ? loc.search : '') +
          (typeof loc.hash === 'string' ? loc.hash : ''),
      );
    }
  }
  return null;
}

/** Where to go after login: the navigation state's `from`, else the `next` parameter, else null. */
export function returnPathOf(state: unknown, search: string): string | null {
  return fromPathOf(state) ?? safeReturnPath(new URLSearchParams(search).get(NEXT_PARAM));
}
