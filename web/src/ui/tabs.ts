/** The five tabs of the phone tab bar, and which one a page belongs to. */
export type TabId = 'home' | 'search' | 'sell' | 'chats' | 'me';

/** The student's own area: the pages the phone menu lists under "Settings", their profile and listings. */
const ME_PREFIXES = ['/personalListings', '/my-deals', '/settings/', '/changePass'];
const SEARCH_PREFIXES = ['/all_listings', '/cat_listing', '/course/'];

/**
 * The tab a path belongs to, or null (a listing, Saved, notifications…: no tab is marked, as on
 * other marketplaces' detail pages). `userId` is the student's own id: /u/{it} is "Me", another
 * student's profile is not.
 */
export function tabForPath(pathname: string, userId: number | null): TabId | null {
  if (pathname === '/dashboard') return 'home';
  if (pathname === '/addlisting') return 'sell';
  if (pathname === '/inbox') return 'chats';
  if (SEARCH_PREFIXES.some((p) => pathname.startsWith(p))) return 'search';
  if (userId !== null && pathname === `/u/${userId}`) return 'me';
  if (ME_PREFIXES.some((p) => pathname.startsWith(p))) return 'me';
  return null;
}

/**
 * What follows a tab's label for a screen reader (", 3 unread", so the Chats tab is named
 * "Chats, 3 unread"); nothing when none are unread. The visible badge is hidden from them.
 */
export function unreadSuffix(unread: number): string {
  return unread > 0 ? `, ${unread} unread` : '';
}
