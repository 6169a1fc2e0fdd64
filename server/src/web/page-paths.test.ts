/**
 * Every page address reloads and deep-links: the router's paths (contract PAGE_PATHS, kept equal to
 * web/src/router.tsx by web/src/router.test.ts) answer the page to a browser's reload and to any
 * other GET — curl, link-preview bots, uptime checks send `Accept: *\/*` — while API paths keep
 * answering JSON. `/notifications` is the API's list (features.md §D) and was also the centre's
 * page, so a reload there showed raw JSON: the page has its own path and a browser opening the old
 * address is sent on to it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOVED_PAGES, NOTIFICATION_CENTRE_PATH, PAGE_PATHS } from '@campus/contract/pages';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';

const SHELL = '<!doctype html><html lang="en"><head></head><body><div id="root"></div></body></html>';

/** What Chromium sends when a student reloads a page, opens a bookmark or a link. */
const RELOAD = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  'sec-fetch-site': 'none',
};
/** What the web app's own API client sends (web/src/api/client.ts) from the page. */
const APP_FETCH = { accept: 'application/json, text/plain, */*', 'sec-fetch-mode': 'cors' };
/** curl, a link-preview bot, an uptime check. */
const ANY = { accept: '*/*' };

/** A concrete address for a router pattern: each `:param` filled, an optional one both ways. */
function addressesOf(pattern: string): string[] {
  const fill = (p: string) =>
    p
      .replace(/:id\b/g, '12')
      .replace(/:code\b/g, 'CSE231')
      .replace(/:roomidCreate\b/g, '3:7');
  if (!pattern.includes('?')) return [fill(pattern)];
  return [fill(pattern.replace(/\/:[^/]+\?/g, '')), fill(pattern.replace(/\?/g, ''))];
}

const ADDRESSES = PAGE_PATHS.flatMap(addressesOf);

/**
 * The page without its head's preview tags: a listing's page carries its own (share/meta.ts,
 * tested in share/share.test.ts), every other page is the shell as built.
 */
const withoutPreviewTags = (body: string) =>
  body.replace(/<title>[^<]*<\/title>|<meta [^>]*>|<link rel="canonical"[^>]*>/g, '');

describe.each(dialects)('page addresses (%s)', (dialect) => {
  let t: TestApp;
  let student: Student;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'cm-web-'));
    await mkdir(path.join(webRoot, 'dist'));
    await writeFile(path.join(webRoot, 'dist', 'index.html'), SHELL);
    t = await createTestApp({ dialect, webDist: path.join(webRoot, 'dist') });
    student = await createStudent(t);
  });

  afterAll(async () => {
    await t.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url, headers });

  it.each(ADDRESSES)('%s reloads as the page, logged in or not', async (address) => {
    for (const headers of [RELOAD, { ...RELOAD, cookie: `cm_token=${student.token}` }]) {
      const res = await get(address, headers);
      expect(res.statusCode, address).toBe(200);
      expect(res.headers['content-type'], address).toContain('text/html');
      expect(withoutPreviewTags(res.body), address).toBe(SHELL);
    }
    // With its query string and a trailing slash, as shared links carry them.
    const shared = await get(`${address === '/' ? '' : address}/?ref=share`, RELOAD);
    expect(shared.statusCode, address).toBe(200);
    expect(withoutPreviewTags(shared.body), address).toBe(SHELL);
  });

  it.each(ADDRESSES)('%s answers the page to a client that accepts anything', async (address) => {
    const res = await get(address, ANY);
    expect(res.statusCode, address).toBe(200);
    expect(res.headers['content-type'], address).toContain('text/html');
    expect(withoutPreviewTags(res.body), address).toBe(SHELL);
    const noAccept = await t.app.inject({ method: 'GET', url: address });
    expect(noAccept.statusCode, address).toBe(200);
    expect(noAccept.headers['content-type'], address).toContain('text/html');
    const head = await get(address, ANY, 'HEAD');
    expect(head.statusCode, address).toBe(200);
    expect(head.headers['content-type'], address).toContain('text/html');
  });

  it('answers GET / with the landing page to curl and uptime checks', async () => {
    const res = await get('/', ANY);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(SHELL);
  });

  it('opens the notification centre on a reload of its page and of the old address', async () => {
    const centre = await get(NOTIFICATION_CENTRE_PATH, { ...RELOAD, cookie: `cm_token=${student.token}` });
    expect(centre.statusCode).toBe(200);
    expect(centre.body).toBe(SHELL);

    for (const [from, to] of Object.entries(MOVED_PAGES)) {
      const old = await get(`${from}?before=40`, { ...RELOAD, cookie: `cm_token=${student.token}` });
      expect(old.statusCode, from).toBe(302);
      expect(old.headers.location, from).toBe(`${to}?before=40`);
      expect(old.headers['cache-control'], from).toBe('no-store');
      expect(old.headers.vary, from).toContain('Sec-Fetch-Mode');
      // A browser too old for Fetch metadata is told apart by what it accepts.
      const legacy = await get(from, { accept: RELOAD.accept });
      expect(legacy.statusCode, from).toBe(302);
    }
  });

  it('keeps GET /notifications the JSON API for the app, API clients and the anonymous', async () => {
    const bearer = { authorization: `Bearer ${student.token}` };
    for (const headers of [APP_FETCH, ANY, { accept: 'application/json' }]) {
      const res = await get('/notifications', { ...headers, ...bearer });
      expect(res.statusCode, headers.accept).toBe(200);
      expect(res.headers['content-type'], headers.accept).toContain('application/json');
      expect(res.json(), headers.accept).toMatchObject({ notifications: [], unreadCount: 0 });
      expect(res.headers.vary, headers.accept).toContain('Sec-Fetch-Mode');
    }
    // A curl without a token, a stranger: the API's 401, never a page or a redirect.
    const anonymous = await get('/notifications', ANY);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    // Writes are never redirected, whatever they accept.
    const read = await t.app.inject({
      method: 'POST',
      url: '/notifications/read',
      headers: { ...RELOAD, ...bearer },
      payload: { upTo: 1 },
    });
    expect(read.statusCode).toBe(200);
  });

  it('keeps answering unknown non-page paths with JSON 404 unless HTML is asked for', async () => {
    for (const url of ['/no-such-api', '/listing', '/single_listing', '/dashboard/extra']) {
      const res = await get(url, ANY);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
    }
    // A browser on an unknown address gets the app, which shows its not-found page.
    const browser = await get('/no-such-page', RELOAD);
    expect(browser.statusCode).toBe(200);
    expect(browser.body).toBe(SHELL);
  });
});
