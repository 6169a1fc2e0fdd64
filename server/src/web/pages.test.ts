/**
 * Server-rendered pages: the page route hands the renderer the student of the `cm_token`
 * cookie and an in-process, read-only fetch that calls the API as that student; its markup and
 * state are put into the shell. The cookie is never a credential for the API itself. The renderer
 * here is a stand-in module with the real interface (web/src/ssr/entry-server.tsx builds the real
 * one; the browser journeys in e2e/tests/ssr.spec.ts exercise it).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCookie } from '@campus/contract/session';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';

const SHELL = `<!doctype html>
<html lang="en">
  <head><script async src="/assets/boot-abc.js"></script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-abc.js">
    <link rel="modulepreload" crossorigin href="/assets/query-abc.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head>
  <body><div id="root"></div></body>
</html>`;

/** What the web build writes to page-chunks.json: a page's chunks beyond the entry. */
const PAGE_CHUNKS = { DashboardPage: ['/assets/DashboardPage-abc.js', '/assets/card-abc.js'] };
const DASHBOARD_PRELOADS =
  '<link rel="modulepreload" crossorigin href="/assets/DashboardPage-abc.js"><link rel="modulepreload" crossorigin href="/assets/card-abc.js">';

/**
 * Renders the student's name from GET /users/info (fetched through the given fetch), refuses a
 * POST, and follows instructions in the URL: `/slow` never answers, `/boom` throws, `/public-only`
 * renders only for a logged-out visitor, `/campus` names the campus of the render (GET /public/campus)
 * and its time zone; a token goes into the state so a test can see which student the render was for.
 */
const RENDERER = `
export async function render({ url, token, fetch, timeZone }) {
  if (url.startsWith('/campus')) {
    const campus = await (await fetch('/public/campus')).json();
    return { html: '<p>' + campus.name + ' ' + timeZone + '</p>', state: '{}' };
  }
  if (url.startsWith('/slow')) return new Promise(() => {});
  if (url.startsWith('/boom')) throw new Error('render failed');
  if (url.startsWith('/post')) {
    try { await fetch('/listings', { method: 'POST', body: '{}' }); return { html: 'posted', state: '{}' }; }
    catch (e) { return { html: 'refused: ' + e.message, state: '{}' }; }
  }
  if (!token) return url === '/' ? { html: '<h1>Welcome</h1>', state: '{"q":"</script><!--x"}' } : null;
  const email = JSON.parse(atob(token.split('.')[1])).sub;
  const res = await fetch('/users/info?email=' + encodeURIComponent(email));
  const body = await res.json();
  return { html: '<p>' + res.status + ' ' + body.firstName + ' costs $& and $1</p>', state: JSON.stringify({ status: res.status }) };
}
`;

describe.each(dialects)('server-rendered pages (%s)', (dialect) => {
  let t: TestApp;
  let student: Student;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'cm-web-'));
    await mkdir(path.join(webRoot, 'dist'));
    await mkdir(path.join(webRoot, 'dist-ssr'));
    await writeFile(path.join(webRoot, 'dist', 'index.html'), SHELL);
    await writeFile(path.join(webRoot, 'dist', 'page-chunks.json'), JSON.stringify(PAGE_CHUNKS));
    await writeFile(path.join(webRoot, 'dist-ssr', 'entry-server.js'), RENDERER);
    // A budget no real render here comes near even on a loaded machine (a render reads the API, and
    // a 50 ms budget sent the shell instead under load), while the never-answering render still
    // shows the give-up path; it costs that one test the budget's wait.
    t = await createTestApp({
      dialect,
      env: TWO_CAMPUSES,
      webDist: path.join(webRoot, 'dist'),
      pageRenderBudgetMs: 2_000,
    });
    student = await createStudent(t, { firstName: 'Ada' });
  });

  afterAll(async () => {
    await t.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  const page = (url: string, cookie?: string, encoding?: string, host?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: {
        accept: 'text/html',
        ...(host ? { host } : {}),
        ...(cookie ? { cookie } : {}),
        ...(encoding ? { 'accept-encoding': encoding } : {}),
      },
    });

  it("renders a logged-in page with the cookie's student, through the API as that student", async () => {
    const res = await page('/dashboard', `theme=dark; cm_token=${student.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['vary']).toContain('Cookie');
    // `$&` and `$1` in a listing's text stay as they are (no replacement patterns).
    expect(res.body).toContain('<div id="root"><p>200 Ada costs $& and $1</p></div>');
    expect(res.body).toContain('<script type="application/json" id="cm-ssr-state">{"status":200}</script>');
    expect(res.body).toContain('<html lang="en" data-ssr="">');
    // The page paints without its scripts: the boot script starts them (the entry, its imports and
    // the page's own chunks) after the first screen.
    expect(res.body).toContain(
      '<script async src="/assets/boot-abc.js" data-entry="/assets/index-abc.js" data-preload="/assets/react-abc.js /assets/query-abc.js /assets/DashboardPage-abc.js /assets/card-abc.js"></script>',
    );
    expect(res.body).not.toContain('<script type="module"');
    expect(res.body).not.toContain('modulepreload');
    expect(res.body).toContain('<link rel="stylesheet" crossorigin href="/assets/index-abc.css">');
  });

  it("renders a visitor's page for the campus of its Host, else the default campus", async () => {
    expect((await page('/campus', undefined, undefined, 'market.uw.edu')).body).toContain(
      '<p>University of Washington America/Los_Angeles</p>',
    );
    expect((await page('/campus')).body).toContain('<p>MSU America/Detroit</p>');
  });

  it("renders a student's page for the student's campus, whatever the Host", async () => {
    const uw = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    expect((await page('/campus', `cm_token=${uw.token}`)).body).toContain(
      '<p>University of Washington America/Los_Angeles</p>',
    );
    expect((await page('/campus', `cm_token=${student.token}`, undefined, 'market.uw.edu')).body).toContain(
      '<p>MSU America/Detroit</p>',
    );
  });

  it('escapes the state so that it cannot close its script element', async () => {
    const res = await page('/');
    expect(res.body).toContain('<h1>Welcome</h1>');
    expect(res.body).toContain('{"q":"\\u003c/script>\\u003c!--x"}');
    expect(res.body).not.toContain('</script><!--x');
  });

  it('sends the plain shell when the renderer declines, fails or is too slow', async () => {
    for (const url of ['/boom', '/slow']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(SHELL);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    // A known page's shell preloads that page's chunks beside the entry, compressed as asked.
    const declined = await page('/dashboard?tab=1', undefined, 'gzip');
    expect(declined.headers['content-encoding']).toBe('gzip');
    expect(declined.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(declined.rawPayload).toString('utf8')).toBe(
      SHELL.replace('</head>', `${DASHBOARD_PRELOADS}</head>`),
    );
    expect((await page('/dashboard')).body).toBe(SHELL.replace('</head>', `${DASHBOARD_PRELOADS}</head>`));
  });

  it('keeps /index.html the plain shell (the service worker caches it for offline use)', async () => {
    const res = await page('/index.html', `cm_token=${student.token}`);
    expect(res.body).toBe(SHELL);
  });

  it('a page render only reads: a write through its fetch is refused', async () => {
    const res = await page('/post', `cm_token=${student.token}`);
    expect(res.body).toContain('refused: The page renderer only reads');
  });

  it('compresses a rendered page for a browser that accepts it', async () => {
    const res = await page('/dashboard', `cm_token=${student.token}`, 'gzip, deflate');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString('utf8')).toContain('200 Ada');
  });

  it('renders with a revoked or forged cookie only what the API answers a stranger', async () => {
    const forged = `${student.token.slice(0, -4)}AAAA`;
    const res = await page('/dashboard', `cm_token=${forged}`);
    expect(res.body).toContain('<p>401 undefined');
  });

  it('never accepts the cookie as a credential on an API route', async () => {
    const withCookie = await t.app.inject({
      method: 'GET',
      url: '/users/me/safety',
      headers: { cookie: `cm_token=${student.token}` },
    });
    expect(withCookie.statusCode).toBe(401);
    const withBearer = await t.app.inject({
      method: 'GET',
      url: '/users/me/safety',
      headers: { authorization: `Bearer ${student.token}` },
    });
    expect(withBearer.statusCode).toBe(200);
  });

  it('answers an API miss with JSON 404, never the page', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/no-such-api',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('readCookie', () => {
  it('finds one cookie among several, decoded, and nothing otherwise', () => {
    expect(readCookie('a=1; cm_token=x%2Ey; b=2', 'cm_token')).toBe('x.y');
    expect(readCookie('cm_tokenx=1; xcm_token=2', 'cm_token')).toBeNull();
    expect(readCookie(undefined, 'cm_token')).toBeNull();
    expect(readCookie('cm_token=%E0%A4%A', 'cm_token')).toBeNull();
  });
});
