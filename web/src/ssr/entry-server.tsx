/**
 * Server renderer (built by `vite build --ssr`, loaded by server/src/web/). Renders a page's first
 * screen to HTML with the app's own components, so a phone paints the listing, the rail or the
 * conversation from the HTML instead of after the JavaScript, the API call and React's render
 * (LCP under 2 s on Slow 4G). The browser then hydrates the same tree (main.tsx).
 *
 * Data: a first render records the queries the screen asks for (TanStack Query builds them in the
 * request's cache); they run here, in-process, as the student (the API is called through the
 * server's own routes, so every rule applies); a further render shows them. At most four rounds,
 * for queries that depend on an earlier answer. The answers travel in the page as dehydrated
 * query state, so the browser's first render is the same as the server's and asks for nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Writable } from 'node:stream';
import { prerenderToNodeStream } from 'react-dom/static';
import type { PageRender } from '@campus/contract';
import { dehydrate, type Query } from '@tanstack/react-query';
import { StaticRouter } from 'react-router';
import { createQueryClient } from '../api/queryClient';
import { App } from '../app/App';
import { isTokenValid } from '../session/jwt';
import { isPublicPath } from '../session/navigation';
import { renderClock, serverTimeBasis } from '../ui/timeBasis';
import { setServerRequestReader, type ServerRequest } from './request';

const requests = new AsyncLocalStorage<ServerRequest>();
setServerRequestReader(() => requests.getStore());

const MAX_ROUNDS = 4;
/** Fizz's marker of a boundary sent after its fallback (React's `<template id="B:…">`). */
const OUT_OF_ORDER = '<template id="B:';

async function renderOnce(
  url: string,
  request: ServerRequest,
  onError: (e: unknown) => void,
): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <App client={request.queryClient} router={(app) => <StaticRouter location={url}>{app}</StaticRouter>} />,
    // Never outline a large part to be swapped in by an inline script (the CSP forbids inline
    // scripts, and the whole page is sent at once anyway).
    { onError, progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    prelude
      .pipe(
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        }),
      )
      .on('finish', resolve)
      .on('error', reject);
  });
  return Buffer.concat(chunks).toString('utf8');
}

/** Screens that only send the student elsewhere (a `<Navigate>`, which acts in the browser). */
function onlyRedirects(pathname: string, loggedIn: boolean): boolean {
  return (loggedIn && pathname === '/login') || pathname === '/nav' || pathname === '/filter';
}

function isEnabled(query: Query): boolean {
  const enabled = (query.options as { enabled?: boolean | ((q: Query) => boolean) }).enabled;
  return typeof enabled === 'function' ? enabled(query) : enabled !== false;
}

/** Queries the screen asked for that have no answer yet (and did not fail in an earlier round). */
function unanswered(request: ServerRequest, failed: ReadonlySet<string>): Query[] {
  return request.queryClient
    .getQueryCache()
    .getAll()
    .filter(
      (q) =>
        q.state.status === 'pending' &&
        q.state.fetchStatus === 'idle' &&
        isEnabled(q) &&
        !failed.has(q.queryHash),
    );
}

/**
 * Renders `url` for the student with `token`, or null when the browser should render it itself: a
 * protected screen without a valid session (the browser's guard sends the student to /login).
 */
export const render: PageRender = async (input) => {
  const pathname = new URL(input.url, 'http://localhost').pathname;
  const token = isTokenValid(input.token) ? input.token : null;
  if (!token && !isPublicPath(pathname)) return null;
  if (onlyRedirects(pathname, token !== null)) return null;
  const queryClient = createQueryClient();
  // One try per query: a failing call is left to the browser, which retries as usual.
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  // One moment for every round, sent with the page: the browser's first render draws the same times.
  const clock = renderClock(Date.now(), input.timeZone);
  const request: ServerRequest = {
    token,
    queryClient,
    fetch: input.fetch,
    timeBasis: serverTimeBasis(clock),
  };
  return requests.run(request, async () => {
    const failed = new Set<string>();
    let html = await renderOnce(input.url, request, input.onError ?? (() => undefined));
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const pending = unanswered(request, failed);
      // A part that suspended in this round (a lazily loaded component first shown with the data)
      // is written out of order, to be put in place by an inline script the CSP forbids: render
      // again now that its code is loaded, so every part is in place in the markup.
      if (pending.length === 0 && !html.includes(OUT_OF_ORDER)) break;
      await Promise.all(pending.map((q) => q.fetch().catch(() => undefined)));
      // A query that failed is not sent to the browser: it renders it as loading and asks again.
      for (const q of pending) if (q.state.status === 'error') failed.add(q.queryHash);
      queryClient.removeQueries({ predicate: (q) => q.state.status === 'error' });
      html = await renderOnce(input.url, request, input.onError ?? (() => undefined));
    }
    // Still out of order after every round: let the browser render the page itself.
    if (html.includes(OUT_OF_ORDER)) return null;
    const state = dehydrate(queryClient);
    return { html, state: JSON.stringify({ ...state, clock }) };
  });
};
