/**
 * The web app: the built files (web/dist) and the pages. A page request (GET, accepting HTML) is
 * answered with the page's first screen rendered on the server when the build has a renderer
 * (the first screen paints from the HTML), with the plain app shell otherwise — logged
 * out on a protected screen, a render that fails or takes too long. A page path answers its page
 * to any GET, whatever it accepts (a reload, a bookmark, `curl`, a link preview); other paths
 * answer the page only to a client asking for HTML, and a JSON 404 otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@campus/contract';
import { MOVED_PAGES, isPagePath } from '@campus/contract/pages';
import { TOKEN_COOKIE, readCookie } from '@campus/contract/session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { campusBaseUrl, campusFor } from '../campuses/index.js';
import { genericMeta, listingIdOfPage, listingMeta, sharedListing, withPageMeta } from '../share/index.js';
import { loadPageChunks, preloadInShell } from './pageChunks.js';
import { loadRenderer, type PageRenderer } from './renderer.js';

/** A render slower than this is dropped for the plain shell (the browser then renders the page). */
export const RENDER_BUDGET_MS = 1500;

/**
 * `fetch` for the renderer: the app's GET API calls answered by this server's own routes, as the
 * student whose cookie came with the page request (bearer header, client address, and Host: a
 * visitor's campus is the one whose `hosts` list it, features.md §E), so every rule of the API
 * applies. Only reads: a page render never changes anything.
 */
function inProcessFetch(app: FastifyInstance, request: FastifyRequest, token: string | null): typeof fetch {
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'GET') throw new TypeError('The page renderer only reads');
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(raw, 'http://page.render');
    const res = await app.inject({
      method: 'GET',
      url: url.pathname + url.search,
      headers: {
        accept: 'application/json',
        host: request.host,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
      },
      remoteAddress: request.ip,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
    }
    const empty = res.statusCode === 204 || res.statusCode === 205 || res.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

type Encoding = 'br' | 'gzip' | null;

/** What a page is sent in: Brotli if the browser takes it, else gzip, else as it is. */
function preferredEncoding(accepts: string): Encoding {
  if (/\bbr\b/.test(accepts)) return 'br';
  if (/\bgzip\b/.test(accepts)) return 'gzip';
  return null;
}

/**
 * A page compressed for the wire (a rendered page's markup and query state are 30–110 KB raw):
 * Brotli at a fast level or gzip. Static files come precompressed from the build.
 */
async function encode(html: string, encoding: Encoding): Promise<Buffer> {
  const raw = Buffer.from(html, 'utf8');
  if (encoding === 'br') return brotli(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
  if (encoding === 'gzip') return gzipped(raw, { level: 6 });
  return raw;
}

function sendHtml(
  reply: FastifyReply,
  body: Buffer,
  encoding: Encoding,
  headers: { 'cache-control': string; vary: string },
): FastifyReply {
  if (encoding) reply.header('content-encoding', encoding);
  return reply.headers(headers).type('text/html; charset=utf-8').send(body);
}

async function renderPage(
  app: FastifyInstance,
  renderer: PageRenderer,
  request: FastifyRequest,
  budgetMs: number,
): Promise<string | null> {
  const token = readCookie(request.headers.cookie, TOKEN_COOKIE);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), budgetMs);
  });
  try {
    const page = renderer.page({
      url: request.url,
      token,
      fetch: inProcessFetch(app, request, token),
      timeZone: (await campusFor(app.ctx, token, request.hostname)).timeZone,
      onError: (err) =>
        request.log.warn({ err, url: request.url }, 'page render: a part is left to the browser'),
    });
    page.catch(() => undefined); // a late failure after the budget ran out
    return await Promise.race([page, late]);
  } catch (err) {
    request.log.warn({ err, url: request.url }, 'page render failed; sending the app shell');
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** The path of a request URL, without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/**
 * A browser opening a page: its navigations say so (`Sec-Fetch-Mode: navigate`); one too old to send
 * Fetch metadata asks for HTML. The app's own fetches (`cors` mode, `Accept: application/json, …`)
 * and API clients never match.
 */
function isNavigation(request: FastifyRequest): boolean {
  const mode = request.headers['sec-fetch-mode'];
  if (mode !== undefined) return mode === 'navigate';
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}

/**
 * Page addresses that were also API paths (contract MOVED_PAGES: `/notifications`, the API's list
 * and once the centre's page, so a reload showed raw JSON). The API keeps its path for every client;
 * a browser navigation there — an old bookmark or link — goes on to the page. A hook, because the
 * API route matches first; both answers vary on what tells them apart. A callback hook: it runs on
 * every request, and an async one would cost each a promise.
 */
function registerMovedPages(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const to =
      request.method === 'GET' || request.method === 'HEAD' ? MOVED_PAGES[pathOf(request.url)] : undefined;
    if (to === undefined) return done();
    reply.header('vary', 'Accept, Sec-Fetch-Mode');
    if (!isNavigation(request)) return done();
    const query = request.url.slice(pathOf(request.url).length);
    void reply.header('cache-control', 'no-store').redirect(to + query, 302);
  });
}

/**
 * A listing page's head: the listing's preview tags when it may be previewed at this address, the
 * generic Campus Market ones otherwise (docs/decisions.md "Sharing and link previews"). Null for
 * any other page, which keeps the shell's own head. The same for every client: a preview bot has
 * no cookie, and the tags say nothing a visitor may not see.
 */
async function listingPageHead(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<((html: string) => string) | null> {
  const pathname = pathOf(request.url);
  const id = listingIdOfPage(pathname);
  if (id === null) return null;
  const shared = id === 0 ? null : await sharedListing(app.ctx, request.hostname, id);
  if (shared) return (html) => withPageMeta(html, listingMeta(shared), shared.preview.imageUrl !== null);
  const campus = app.ctx.campuses.forHost(request.hostname) ?? app.ctx.campuses.default;
  const meta = genericMeta(campusBaseUrl(app.ctx.config.publicUrl, campus), pathname);
  return (html) => withPageMeta(html, meta, false);
}

/** Serves the built SPA: page paths and GETs that want HTML get the page, API misses a JSON 404. */
export async function registerWeb(
  app: FastifyInstance,
  webDist: string,
  renderBudgetMs = RENDER_BUDGET_MS,
): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  const pageChunks = loadPageChunks(webDist);
  const renderer = hasWeb ? await loadRenderer(webDist, pageChunks) : null;
  const shell = hasWeb ? readFileSync(path.join(webDist, 'index.html'), 'utf8') : '';
  // The shell with a page's chunks preloaded, compressed once per page and encoding.
  const shells = new Map<string, Promise<Buffer>>();
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      // `/` is a page like the others (rendered below); /index.html stays the plain shell, which
      // the service worker keeps for offline use.
      index: false,
      // The web build writes .br/.gz copies; browsers that accept them get the smaller file.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.header('cache-control', 'no-cache');
        }
      },
    });
  }
  if (hasWeb) registerMovedPages(app);
  app.setNotFoundHandler(async (request, reply) => {
    const read = request.method === 'GET' || request.method === 'HEAD';
    const wantsHtml =
      read && (isPagePath(pathOf(request.url)) || (request.headers.accept ?? '').includes('text/html'));
    if (hasWeb && wantsHtml) {
      const encoding = preferredEncoding(String(request.headers['accept-encoding'] ?? ''));
      const [head, rendered] = await Promise.all([
        listingPageHead(app, request),
        renderer ? renderPage(app, renderer, request, renderBudgetMs) : null,
      ]);
      const html = rendered !== null && head ? head(rendered) : rendered;
      if (html !== null) {
        // The page holds the student's own data: never kept by a shared cache, always revalidated.
        return sendHtml(reply, await encode(html, encoding), encoding, {
          'cache-control': 'private, no-cache',
          vary: 'Cookie, Accept-Encoding',
        });
      }
      const chunks = pageChunks(request.url);
      if (head) {
        // Tags of one listing: made for this request, not kept with the shared shells.
        return sendHtml(reply, await encode(head(preloadInShell(shell, chunks)), encoding), encoding, {
          'cache-control': 'no-cache',
          vary: 'Accept-Encoding',
        });
      }
      if (chunks.length === 0) return reply.header('cache-control', 'no-cache').sendFile('index.html');
      const key = `${chunks.join(' ')}|${encoding}`;
      let encoded = shells.get(key);
      if (!encoded) {
        encoded = encode(preloadInShell(shell, chunks), encoding);
        shells.set(key, encoded);
      }
      return sendHtml(reply, await encoded, encoding, {
        'cache-control': 'no-cache',
        vary: 'Accept-Encoding',
      });
    }
    return reply.code(404).send({ message: MESSAGES.notFound, code: 'NOT_FOUND' });
  });
}
