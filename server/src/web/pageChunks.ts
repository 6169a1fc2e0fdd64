/**
 * The scripts a page needs beyond the app's entry: its lazy page chunk and that chunk's imports,
 * from `page-chunks.json`, which the web build writes beside index.html. The server names them in
 * the HTML it sends (on a rendered page for the boot script to start after the first screen, on the
 * plain shell as modulepreload links), so the browser fetches them beside the entry instead of
 * discovering them once the entry has run — and no page-to-chunk table rides in every page's boot
 * script.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The page module (web/src/**\/XPage.tsx) a location opens; null where none is named here. */
export function pageModuleOf(pathname: string): string | null {
  if (pathname === '/') return 'LandingPage';
  if (pathname === '/login') return 'LoginPage';
  if (pathname === '/signup') return 'SignUpPage';
  if (pathname === '/dashboard') return 'DashboardPage';
  if (pathname === '/all_listings') return 'AllListingsPage';
  if (/^\/single_listing\/\d{1,10}$/.test(pathname)) return 'SingleListingPage';
  if (pathname === '/inbox') return 'InboxPage';
  if (pathname === '/addlisting') return 'AddListingPage';
  if (pathname === '/cat_listing') return 'CategoryListingsPage';
  if (pathname === '/personalListings') return 'PersonalListingsPage';
  if (pathname === '/chat' || pathname.startsWith('/chat/')) return 'ChatPage';
  return null;
}

/** The chunks (absolute paths) of the page a URL opens; none for an unknown page or build. */
export type PageChunks = (url: string) => readonly string[];

export function loadPageChunks(webDist: string): PageChunks {
  const file = path.join(webDist, 'page-chunks.json');
  let table: Record<string, string[]> = {};
  if (existsSync(file)) {
    try {
      table = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
    } catch {
      // An unreadable table only costs the head start: pages still load their chunks themselves.
    }
  }
  return (url) => {
    const page = pageModuleOf(new URL(url, 'http://page').pathname);
    return (page && table[page]) || [];
  };
}

/** The shell with modulepreload links for `chunks` (it loads the entry itself). */
export function preloadInShell(shell: string, chunks: readonly string[]): string {
  if (chunks.length === 0) return shell;
  const links = chunks.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`).join('');
  return shell.replace('</head>', () => `${links}</head>`);
}
