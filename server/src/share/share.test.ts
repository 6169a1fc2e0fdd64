/**
 * Shared listing links (docs/decisions.md "Sharing and link previews"): the page the server sends
 * for /single_listing/:id carries the listing's preview tags to a client without a session (a
 * link-preview bot), never anything of the seller; a campus can turn previews off; another site's
 * campus, a removed or unknown listing get the generic Campus Market tags; the cover photo is
 * fetchable without a session; the public preview API answers the same rules in JSON.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listing } from '@campus/contract';
import { inCampus } from '../campuses/index.js';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { campusOfUser, TEST_CAMPUSES } from '../../test/campuses.js';
import { makeJpeg, postListing, validFields } from '../listings/testing.js';

const SHELL =
  '<!doctype html><html lang="en"><head><title>Campus Market</title>' +
  '<meta name="description" content="Generic words">' +
  '<meta property="og:title" content="Campus Market" /><meta name="twitter:card" content="summary" />' +
  '</head><body><div id="root"></div></body></html>';

const CAMPUSES = [
  ...TEST_CAMPUSES,
  {
    slug: 'quiet',
    name: 'Quiet College',
    emailDomains: ['quiet.edu'],
    timeZone: 'America/New_York',
    hosts: ['market.quiet.edu'],
    linkPreviews: false,
  },
];

/** A link-preview bot, curl: no cookie, anything accepted. */
const BOT = { accept: '*/*', 'user-agent': 'facebookexternalhit/1.1' };

/** The content of `<meta property|name="key">` in a page, or null. */
function meta(html: string, key: string): string | null {
  const m = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html);
  return m ? m[1]! : null;
}

describe.each(dialects)('shared listing links (%s)', (dialect) => {
  let t: TestApp;
  let webRoot: string;
  let seller: Student;
  let listing: Listing;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'cm-share-'));
    await mkdir(path.join(webRoot, 'dist'));
    await writeFile(path.join(webRoot, 'dist', 'index.html'), SHELL);
    t = await createTestApp({
      dialect,
      webDist: path.join(webRoot, 'dist'),
      env: { CAMPUSES: JSON.stringify(CAMPUSES), PUBLIC_URL: 'https://market.example' },
    });
    seller = await createStudent(t, { firstName: 'Zelda', lastName: 'Quackenbush' });
    listing = await postListing(
      t,
      seller,
      validFields({
        name: 'Desk lamp',
        price: '40',
        condition: 'LIKE_NEW',
        description: 'Pick up at Wonders Hall room 4012, text 517-555-0199',
      }),
      await makeJpeg(),
    );
  });

  afterAll(async () => {
    await t?.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  const page = (id: number | string, headers: Record<string, string> = BOT) =>
    t.app.inject({ method: 'GET', url: `/single_listing/${id}`, headers });

  it('previews the listing to a client without a session: name, price, cover photo, campus', async () => {
    const res = await page(listing.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(meta(html, 'og:title')).toBe('Desk lamp');
    expect(meta(html, 'og:description')).toBe('$40 · Like new · on Campus Market at MSU');
    expect(meta(html, 'og:url')).toBe(`https://market.example/single_listing/${listing.id}`);
    expect(meta(html, 'og:image')).toBe(`https://market.example${listing.imageUrl}`);
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(meta(html, 'twitter:image')).toBe(`https://market.example${listing.imageUrl}`);
    // The shell's generic head is replaced, not doubled.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>Desk lamp</title>');
    expect(html).not.toContain('Generic words');
    expect(html.match(/og:title/g)).toHaveLength(1);
    // Nothing of the seller, nothing of the description, no other photo.
    for (const secret of [
      'Zelda',
      'Quackenbush',
      seller.email,
      'Wonders',
      '517-555',
      listing.thumbnailUrl!,
    ]) {
      expect(html, secret).not.toContain(secret);
    }
  });

  it('sends the same tags with a session, and the cover photo to anyone', async () => {
    const res = await page(listing.id, { ...BOT, cookie: `cm_token=${seller.token}` });
    expect(meta(res.body, 'og:title')).toBe('Desk lamp');
    const photo = await t.app.inject({ method: 'GET', url: listing.imageUrl!, headers: BOT });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
  });

  it('answers the preview API without a session, with the preview fields only', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/public/listings/${listing.id}/preview`,
      headers: BOT,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: listing.id,
      name: 'Desk lamp',
      price: 40,
      category: 'ELECTRONICS',
      condition: 'LIKE_NEW',
      status: 'AVAILABLE',
      imageUrl: listing.imageUrl,
      thumbnailUrl: listing.thumbnailUrl,
      imageVariants: listing.imageVariants,
      campusName: 'MSU',
    });
    expect(res.body).not.toContain('Zelda');
    const bad = await t.app.inject({ method: 'GET', url: '/public/listings/abc/preview', headers: BOT });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: expect.any(String) });
  });

  it('escapes a listing name in the tags', async () => {
    const odd = await postListing(t, seller, validFields({ name: 'Mug "best" <b>&</b> $&' }));
    const res = await page(odd.id);
    expect(meta(res.body, 'og:title')).toBe('Mug &quot;best&quot; &lt;b&gt;&amp;&lt;/b&gt; $&amp;');
    expect(res.body).not.toContain('<b>&');
    // No photo: no image tag, the small card.
    expect(meta(res.body, 'og:image')).toBeNull();
    expect(meta(res.body, 'twitter:card')).toBe('summary');
  });

  it("previews another campus's listing only on that campus's own address", async () => {
    const uwSeller = await createStudent(t, { domain: 'uw.edu', firstName: 'Wanda' });
    const uwListing = await postListing(t, uwSeller, validFields({ name: 'Rain jacket', price: '25' }));
    // On the default address: the generic card, the API's not-found.
    const elsewhere = await page(uwListing.id);
    expect(elsewhere.statusCode).toBe(200);
    expect(meta(elsewhere.body, 'og:title')).toBe('Campus Market');
    expect(elsewhere.body).not.toContain('Rain jacket');
    const api = await t.app.inject({
      method: 'GET',
      url: `/public/listings/${uwListing.id}/preview`,
      headers: BOT,
    });
    expect(api.statusCode).toBe(404);
    // On its campus's host: its own preview, its URLs on that host.
    const home = await page(uwListing.id, { ...BOT, host: 'market.uw.edu' });
    expect(meta(home.body, 'og:title')).toBe('Rain jacket');
    expect(meta(home.body, 'og:description')).toBe('$25 · on Campus Market at University of Washington');
    expect(meta(home.body, 'og:url')).toBe(`https://market.uw.edu/single_listing/${uwListing.id}`);
    // …and the MSU listing is not previewed there.
    const msuThere = await page(listing.id, { ...BOT, host: 'market.uw.edu' });
    expect(msuThere.body).not.toContain('Desk lamp');
    expect(meta(msuThere.body, 'og:url')).toBe(`https://market.uw.edu/single_listing/${listing.id}`);
  });

  it('keeps the generic tags on a campus that turned previews off', async () => {
    const quietSeller = await createStudent(t, { domain: 'quiet.edu' });
    const quiet = await postListing(t, quietSeller, validFields({ name: 'Quiet kettle' }), await makeJpeg());
    const res = await page(quiet.id, { ...BOT, host: 'market.quiet.edu' });
    expect(res.statusCode).toBe(200);
    expect(meta(res.body, 'og:title')).toBe('Campus Market');
    expect(meta(res.body, 'og:image')).toBe('https://market.quiet.edu/icons/icon-512.png');
    expect(res.body).not.toContain('Quiet kettle');
    expect(res.body).not.toContain(quiet.imageUrl!);
    const api = await t.app.inject({
      method: 'GET',
      url: `/public/listings/${quiet.id}/preview`,
      headers: { ...BOT, host: 'market.quiet.edu' },
    });
    expect(api.statusCode).toBe(404);
  });

  it('answers an unknown or removed listing with the page and the generic tags', async () => {
    for (const id of [999999, '00', 'abc', '99999999999999999999']) {
      const res = await page(id);
      expect(res.statusCode, String(id)).toBe(200);
      expect(meta(res.body, 'og:title'), String(id)).toBe('Campus Market');
    }
    const removed = await postListing(t, seller, validFields({ name: 'Removed thing' }));
    const campusId = await campusOfUser(t, seller.id);
    await inCampus(campusId, () =>
      t.app.ctx.db.kysely
        .updateTable('listings')
        .set({ moderation: 'REMOVED' })
        .where('id', '=', removed.id)
        .execute(),
    );
    const res = await page(removed.id);
    expect(res.body).not.toContain('Removed thing');
    const api = await t.app.inject({
      method: 'GET',
      url: `/public/listings/${removed.id}/preview`,
      headers: BOT,
    });
    expect(api.statusCode).toBe(404);
  });

  it('answers pages with HTML to curl and uptime checks, and API misses with JSON', async () => {
    for (const url of ['/', `/single_listing/${listing.id}`, '/login']) {
      for (const headers of [{ accept: '*/*' }, {}]) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toContain('text/html');
      }
    }
    // Other pages keep the shell's head.
    const landing = await t.app.inject({ method: 'GET', url: '/', headers: BOT });
    expect(landing.body).toBe(SHELL);
    for (const url of ['/no-such-api', '/public/listings/999999/preview']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/json');
    }
  });
});
