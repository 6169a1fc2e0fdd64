/**
 * JavaScript a first visit needs, per page, from the production build (web/dist): the scripts and
 * modulepreloads of index.html (boot script, entry chunk and its imports) plus the page's lazy
 * chunk and its static imports, at the sizes a browser downloads them (the build's .br and .gz
 * files, which the server sends). A logged-in page also counts what it loads right after it paints,
 * before the network is quiet: the live links of the top bar (unread chats, the bell) with their
 * static imports and the STOMP client they import. Chunks loaded only on demand (toasts, the photo
 * viewer, a typed-ahead replay) are not counted; `npm run bench:web` reports what Lighthouse saw the
 * browser download.
 *
 * Run: npm run build -w web && npm run bench:js -w bench   (exit code 1 if a budget is exceeded)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const DIST = path.resolve(import.meta.dirname, '../../web/dist');
/** The target: JavaScript on a first visit ≤ 130 KB compressed on / and /dashboard (phone-first). */
const BUDGET_BYTES = 130_000;
const BUDGETED = new Set(['/', '/dashboard']);

const PAGES: Array<[string, string | null]> = [
  ['/', 'LandingPage'],
  ['/login', 'LoginPage'],
  ['/dashboard', 'DashboardPage'],
  ['/all_listings', 'AllListingsPage'],
  ['/single_listing/:id', 'SingleListingPage'],
  ['/inbox', 'InboxPage'],
  ['/addlisting', 'AddListingPage'],
  ['/chat/:room', 'ChatPage'],
];

/** Public pages: no top bar, no live links. */
const VISITOR_PAGES = new Set(['/', '/login']);
/** Chunks every logged-in page loads after its first render (LiveUnreadProvider, NotificationsProvider). */
const AFTER_PAINT = ['LiveUnreadLink', 'LiveNotificationsLink'];

const size = (file: string) => (existsSync(file) ? statSync(file).size : NaN);

function staticImports(file: string): string[] {
  const code = readFileSync(path.join(DIST, file), 'utf8');
  const out = new Set<string>();
  // Minified static imports: `import{a as b}from"./x.js"` and `import"./x.js"` (not `import("./x.js")`).
  for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) out.add(`assets/${m[1]}`);
  return [...out];
}

/** `import("./x.js")` of a chunk: what it loads when it runs. */
function dynamicImports(file: string): string[] {
  const code = readFileSync(path.join(DIST, file), 'utf8');
  return [...new Set([...code.matchAll(/import\(["`]\.\/([^"`]+\.js)["`]\)/g)].map((m) => `assets/${m[1]}`))];
}

function closure(file: string, into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const dep of staticImports(file)) closure(dep, into);
  return into;
}

const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
const initial = new Set<string>();
for (const m of html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g)) {
  closure(m[1]!, initial);
}
const assets = readdirSync(path.join(DIST, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => `assets/${f}`);

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
let failed = false;
console.log('| page | files | raw | gzip | brotli | budget (brotli, as served) |');
console.log('|---|---|---|---|---|---|');
for (const [page, module] of PAGES) {
  const files = new Set(initial);
  const chunk = module ? assets.find((f) => path.basename(f).startsWith(`${module}-`)) : undefined;
  if (chunk) closure(chunk, files);
  if (!VISITOR_PAGES.has(page)) {
    const live = new Set<string>();
    for (const name of AFTER_PAINT) {
      const file = assets.find((f) => path.basename(f).startsWith(`${name}-`));
      if (file) closure(file, live);
    }
    // The realtime module imports the STOMP client when the links start (api/stomp.ts).
    for (const file of [...live]) {
      if (path.basename(file).startsWith('stomp-'))
        for (const dep of dynamicImports(file)) closure(dep, live);
    }
    for (const file of live) files.add(file);
  }
  let raw = 0;
  let gz = 0;
  let br = 0;
  for (const f of files) {
    const full = path.join(DIST, f);
    raw += size(full);
    // Files compression would not shrink have no .br/.gz: counted at their raw size.
    gz += existsSync(`${full}.gz`) ? size(`${full}.gz`) : size(full);
    br += existsSync(`${full}.br`) ? size(`${full}.br`) : size(full);
  }
  const over = BUDGETED.has(page) && br > BUDGET_BYTES;
  failed ||= over;
  const verdict = BUDGETED.has(page)
    ? over
      ? `**over** ${kb(BUDGET_BYTES)}`
      : `ok ≤ ${kb(BUDGET_BYTES)}`
    : '';
  if (process.env.BENCH_LIST_FILES) console.error(page, [...files].sort().join(' '));
  console.log(`| \`${page}\` | ${files.size} | ${kb(raw)} | ${kb(gz)} | ${kb(br)} | ${verdict} |`);
}
process.exitCode = failed ? 1 : 0;
