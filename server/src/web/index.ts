/**
 * The web app: the built files (web/dist) and the pages. A page request (GET, accepting HTML) is
 * answered with the page's first screen rendered on the server when the build has a renderer
 * (issue 13: the first screen paints from the HTML), with the plain app shell otherwise — logged
 * out on a protected screen, a render that fails or takes too long. API misses get a JSON 404.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@campus/contract';
import { TOKEN_COOKIE } from '@campus/contract/session';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readCookie } from './cookies.js';
import { loadPageChunks, preloadInShell } from './pageChunks.js';
import { loadRenderer, type PageRenderer } from './renderer.js';

/** A render slower than this is dropped for the plain shell (the browser then renders the page). */
export const RENDER_BUDGET_MS = 1500;

/**
 * `fetch` for the renderer: the app's GET API calls answered by this server's own routes, as the
 * student whose cookie came with the page request (bearer header, client address), so every rule
 * of the API applies. Only reads: a page render never changes anything.
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

/**
 * A rendered page compressed for the wire (its markup and query state are 30–110 KB raw): Brotli
 * at a fast level, else gzip, else as it is. Static files come precompressed from the build.
 */
async function encode(html: string, accepts: string): Promise<{ body: Buffer; encoding: string | null }> {
  const raw = Buffer.from(html, 'utf8');
  if (/\bbr\b/.test(accepts))
    return { body: await brotli(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }), encoding: 'br' };
  if (/\bgzip\b/.test(accepts)) return { body: await gzipped(raw, { level: 6 }), encoding: 'gzip' };
  return { body: raw, encoding: null };
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

/** Serves the built SPA; unknown GETs that want HTML get the page, API misses get JSON 404. */
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
  const shells = new Map<string, Promise<{ body: Buffer; encoding: string | null }>>();
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
  app.setNotFoundHandler(async (request, reply) => {
    const wantsHtml = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (hasWeb && wantsHtml) {
      const html = renderer ? await renderPage(app, renderer, request, renderBudgetMs) : null;
      if (html !== null) {
        const { body, encoding } = await encode(html, String(request.headers['accept-encoding'] ?? ''));
        if (encoding) reply.header('content-encoding', encoding);
        // The page holds the student's own data: never kept by a shared cache, always revalidated.
        return reply
          .header('cache-control', 'private, no-cache')
          .header('vary', 'Cookie, Accept-Encoding')
          .type('text/html; charset=utf-8')
          .send(body);
      }
      const chunks = pageChunks(request.url);
      if (chunks.length === 0) return reply.header('cache-control', 'no-cache').sendFile('index.html');
      const accepts = String(request.headers['accept-encoding'] ?? '');
      const wanted = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : '';
      const key = `${chunks.join(' ')}|${wanted}`;
      let encoded = shells.get(key);
      if (!encoded) {
        encoded = encode(preloadInShell(shell, chunks), wanted);
        shells.set(key, encoded);
      }
      const { body, encoding } = await encoded;
      if (encoding) reply.header('content-encoding', encoding);
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Encoding')
        .type('text/html; charset=utf-8')
        .send(body);
    }
    return reply.code(404).send({ message: MESSAGES.notFound, code: 'NOT_FOUND' });
  });
}
