// Photos like every marketplace (issue 31, move 4): a listing posted from a phone with a PNG, a JPEG
// and a WebP photo (a HEIC this browser cannot open is refused with what to choose instead); on the
// listing page a tap opens the full-screen viewer — swipe, pinch, double tap, arrows, Escape, focus
// kept inside and given back to the photo — at 390 px with touch and at 1280 px with a mouse.
// axe with the viewer open; screenshots of it at both widths.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type CDPSession, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { expectAccessible } from '../support/axe.js';
import { APP_ENTRY, holdRequests } from '../support/hold.js';
import { settled } from '../support/settle.js';
import { registeredStudent } from '../support/students.js';
import { DESKTOP, PHONE } from '../support/viewports.js';

// Sign-ups, three uploads converted in the browser and axe scans take a while on a loaded machine.
test.describe.configure({ timeout: 300_000 });

const NAME = `Desk lamp with three photos ${Date.now().toString(36)}`;

/** A photo of the given format and shape (the shape tells the photos apart after re-encoding). */
async function photo(
  name: string,
  format: 'png' | 'jpeg' | 'webp',
  width: number,
  height: number,
  colour: string,
): Promise<string> {
  const dir = path.resolve('artifacts/fixtures');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.${format === 'jpeg' ? 'jpg' : format}`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="${colour}"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#fff" opacity="0.25"/>
    <text x="50%" y="55%" font-size="110" font-family="sans-serif" fill="#fff" text-anchor="middle">${name}</text></svg>`;
  await sharp(Buffer.from(svg)).toFormat(format).toFile(file);
  return file;
}

/** Screenshot of the screen as it is, in the artifacts and in E2E_SHOTS_DIR when set. */
async function snap(page: Page, name: string): Promise<void> {
  await settled(page);
  await page.screenshot({ path: `artifacts/screens/${name}.png` });
  const extra = process.env.E2E_SHOTS_DIR;
  if (extra) await page.screenshot({ path: `${extra}/${name}.png` });
}

/** The scale the viewer draws its photo at (its CSS transform's matrix). */
async function scaleOf(img: Locator): Promise<number> {
  return img.evaluate((el) => {
    const t = getComputedStyle(el).transform;
    return t === 'none' ? 1 : new DOMMatrixReadOnly(t).a;
  });
}

/** A one-finger swipe with real touch events (Chromium turns them into pointer events). */
async function swipe(cdp: CDPSession, from: { x: number; y: number }, dx: number, dy = 0): Promise<void> {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...from, id: 1 }] });
  for (let i = 1; i <= 10; i++) {
    const point = { x: from.x + (dx * i) / 10, y: from.y + (dy * i) / 10, id: 1 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** Two fingers moving apart from `gap` to `to` px around `centre`. */
async function pinch(cdp: CDPSession, centre: { x: number; y: number }, gap: number, to: number) {
  const points = (g: number) => [
    { x: centre.x - g / 2, y: centre.y, id: 1 },
    { x: centre.x + g / 2, y: centre.y, id: 2 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(gap) });
  for (let i = 1; i <= 10; i++) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: points(gap + ((to - gap) * i) / 10),
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/**
 * Two taps as a double tap (within 300 ms), until the photo shows at `scale`. On a loaded machine
 * Playwright's two taps can land further apart than any thumb's: then they are two single taps,
 * which change nothing, and the pair is tapped again.
 */
async function doubleTap(
  page: Page,
  img: Locator,
  at: { x: number; y: number },
  scale: number,
  precision: number,
) {
  await expect(async () => {
    await page.touchscreen.tap(at.x, at.y);
    await page.touchscreen.tap(at.x, at.y);
    await expect.poll(() => scaleOf(img), { timeout: 2_000 }).toBeCloseTo(scale, precision);
  }).toPass({ timeout: 30_000 });
}

const focusInside = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('dialog') !== null && document.activeElement !== null);
const htmlOverflow = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).overflow);

test('photos: PNG, JPEG and WebP posted from a phone; the full-screen viewer by touch and by mouse', async ({
  browser,
}) => {
  // ---- A seller on a phone (touch) posts the listing with three photos of three formats.
  const phoneCtx = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  const seller = await phoneCtx.newPage();
  await registeredStudent(seller, 'Noor', 'Haddad');
  await seller.goto('/addlisting');
  const input = seller.locator('input[type=file]');
  await expect(input).toHaveAttribute('accept', /image\/png/);
  await expect(input).toHaveAttribute('accept', /\.heic/);

  // A HEIC Chromium cannot open is refused when picked, saying what to choose instead.
  await input.setInputFiles({
    name: 'IMG_0042.heic',
    mimeType: 'image/heic',
    buffer: Buffer.from('....ftypheic not a photo this browser can open'),
  });
  // Picked on the server-rendered page perhaps before its script ran (then taken once it has), and
  // refused after the browser's try at decoding it: both can be slow on a busy machine.
  await expect(
    seller.getByText('"IMG_0042.heic" cannot be opened in this browser. Choose a JPEG or PNG photo instead.'),
  ).toBeVisible({ timeout: 30_000 });
  // A type no browser converts is refused too.
  await input.setInputFiles({ name: 'anim.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(seller.getByText('Only JPG, PNG, WebP or HEIC photos can be added')).toBeVisible();
  await snap(seller, 'photo-refused-390');
  const chosen = seller.getByRole('list', { name: 'Chosen photos' });
  await expect(chosen.getByRole('img')).toHaveCount(0);

  await seller.getByLabel('Name').fill(NAME);
  await seller.getByLabel('Price').fill('18');
  await seller.getByLabel('Category').selectOption('LIFESTYLE');
  await seller
    .getByLabel('Description')
    .fill('Warm light, heavy base, works perfectly. Pick up at Wilson Hall.');
  await input.setInputFiles([
    await photo('wide', 'png', 1200, 600, '#18453b'),
    await photo('square', 'jpeg', 900, 900, '#7a3b18'),
    await photo('tall', 'webp', 600, 1200, '#1d3f8a'),
  ]);
  await expect(chosen.getByRole('img')).toHaveCount(3);
  await expect(chosen.getByRole('img').first()).toHaveAccessibleName('Photo 1 of 3: wide.png (cover)');
  await seller.getByRole('button', { name: 'Add listing' }).click();
  // The browser converts each to JPEG (the server takes JPEG only): the post goes through.
  await expect(seller).toHaveURL(/\/all_listings/, { timeout: 60_000 });

  const token = await seller.evaluate(() => window.localStorage.getItem('token'));
  const mine = (await (
    await seller.request.get('/listings/self', { headers: { authorization: `Bearer ${token}` } })
  ).json()) as Array<{ id: number; name: string; photos: Array<{ url: string }> }>;
  const listing = mine.find((l) => l.name === NAME);
  expect(listing?.photos).toHaveLength(3);
  const url = `/single_listing/${listing!.id}`;

  // ---- On the phone: a tap on the photo opens the viewer.
  await seller.goto(url);
  // A full load restores the scroll of the last full load (app/routing.tsx); start at the top.
  await seller.evaluate(() => window.scrollTo(0, 0));
  await snap(seller, 'listing-gallery-390');
  const cover = seller.getByRole('button', { name: `${NAME}, photo 1 of 3` });
  await cover.tap();
  const viewer = seller.getByRole('dialog', { name: `Photos of ${NAME}` });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByText('1 of 3')).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Close' })).toBeFocused();
  expect(await htmlOverflow(seller)).toBe('hidden');
  const close = await viewer.getByRole('button', { name: 'Close' }).boundingBox();
  expect(close?.width).toBeGreaterThanOrEqual(44);
  expect(close?.height).toBeGreaterThanOrEqual(44);
  // The PNG came through as the cover, its shape kept (2:1).
  const shown = viewer.getByRole('img');
  await expect(shown).toHaveAccessibleName(`${NAME}, photo 1 of 3`);
  await expect
    .poll(() => shown.evaluate((i: HTMLImageElement) => (i.complete ? i.naturalWidth / i.naturalHeight : 0)))
    .toBeCloseTo(2, 1);

  // Swipe left: the next photo; the position is announced.
  const cdp = await phoneCtx.newCDPSession(seller);
  await swipe(cdp, { x: 300, y: 420 }, -220);
  await expect(viewer.getByText('2 of 3')).toBeVisible();
  await expect(viewer.locator('[aria-live="polite"]')).toHaveText('Photo 2 of 3');
  await expect(shown).toHaveAccessibleName(`${NAME}, photo 2 of 3`);

  // Pinch to zoom in; a double tap fits it again, another zooms in where tapped.
  await pinch(cdp, { x: 195, y: 420 }, 80, 240);
  await expect.poll(() => scaleOf(shown)).toBeGreaterThan(2);
  await doubleTap(seller, shown, { x: 195, y: 420 }, 1, 2);
  await doubleTap(seller, shown, { x: 150, y: 400 }, 2.5, 1);
  // A swipe on a zoomed photo pans it rather than leaving it.
  await swipe(cdp, { x: 200, y: 420 }, -120);
  await expect(viewer.getByText('2 of 3')).toBeVisible();

  // Arrow keys (a keyboard on a tablet) move too, and a new photo starts fitted.
  await seller.keyboard.press('ArrowRight');
  await expect(viewer.getByText('3 of 3')).toBeVisible();
  await expect.poll(() => scaleOf(shown)).toBeCloseTo(1, 2);
  await expect
    .poll(() => shown.evaluate((i: HTMLImageElement) => (i.complete ? i.naturalWidth / i.naturalHeight : 0)))
    .toBeCloseTo(0.5, 1);
  await seller.keyboard.press('ArrowLeft');
  await expect(viewer.getByText('2 of 3')).toBeVisible();

  await expectAccessible(seller, 'photo-viewer-phone', { widths: [PHONE.width] });
  await snap(seller, 'photo-viewer-390');

  // Escape closes: the gallery shows the photo the viewer was on, and that photo has focus.
  await seller.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(seller.getByRole('button', { name: `${NAME}, photo 2 of 3` })).toBeFocused();
  await expect(seller.getByText('2 / 3')).toBeVisible();
  expect(await htmlOverflow(seller)).not.toBe('hidden');

  // Swiping down on a fitted photo closes too, as in a phone's own gallery.
  await seller.getByRole('button', { name: `${NAME}, photo 2 of 3` }).tap();
  await expect(viewer).toBeVisible();
  await swipe(cdp, { x: 195, y: 300 }, 0, 260);
  await expect(viewer).toBeHidden();
  await phoneCtx.close();

  // ---- A buyer at a desktop: click, arrows, a mouse drag, zoom buttons and the wheel.
  const deskCtx = await browser.newContext({ viewport: DESKTOP });
  const buyer = await deskCtx.newPage();
  await registeredStudent(buyer, 'Leo', 'Okafor');
  await buyer.goto(url);
  await snap(buyer, 'listing-gallery-1280');
  await buyer.getByRole('button', { name: `${NAME}, photo 1 of 3` }).click();
  const deskViewer = buyer.getByRole('dialog', { name: `Photos of ${NAME}` });
  await expect(deskViewer).toBeVisible();
  await expect(deskViewer.getByRole('button', { name: 'Close' })).toBeFocused();
  await buyer.keyboard.press('ArrowRight');
  await expect(deskViewer.getByText('2 of 3')).toBeVisible();

  // Dragging with the mouse swipes as a finger does.
  await buyer.mouse.move(840, 420);
  await buyer.mouse.down();
  await buyer.mouse.move(420, 420, { steps: 12 });
  await buyer.mouse.up();
  await expect(deskViewer.getByText('3 of 3')).toBeVisible();
  await deskViewer.getByRole('button', { name: 'Previous photo' }).click();
  await expect(deskViewer.getByText('2 of 3')).toBeVisible();

  const deskShown = deskViewer.getByRole('img');
  await deskViewer.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(() => scaleOf(deskShown)).toBeCloseTo(1.5, 1);
  await buyer.mouse.move(640, 400);
  await buyer.mouse.wheel(0, -300);
  await expect.poll(() => scaleOf(deskShown)).toBeGreaterThan(2);
  await deskViewer.getByRole('button', { name: 'Zoom out' }).click();
  await buyer.keyboard.press('0');
  await expect.poll(() => scaleOf(deskShown)).toBeCloseTo(1, 2);

  // Tab goes round the viewer's buttons and never out of it.
  for (let i = 0; i < 7; i++) {
    await buyer.keyboard.press('Tab');
    expect(await focusInside(buyer)).toBe(true);
  }
  await buyer.keyboard.press('Shift+Tab');
  expect(await focusInside(buyer)).toBe(true);
  expect(await htmlOverflow(buyer)).toBe('hidden');

  await expectAccessible(buyer, 'photo-viewer-desktop', { widths: [DESKTOP.width] });
  await snap(buyer, 'photo-viewer-1280');

  await buyer.keyboard.press('Escape');
  await expect(deskViewer).toBeHidden();
  await expect(buyer.getByRole('button', { name: `${NAME}, photo 2 of 3` })).toBeFocused();
  expect(await htmlOverflow(buyer)).not.toBe('hidden');

  // A PNG goes into a chat too (converted to JPEG on the way).
  await buyer.getByRole('button', { name: 'Chat with the seller' }).click();
  await expect(buyer).toHaveURL(/\/chat/);
  await buyer.getByRole('button', { name: 'Attach a photo' }).click();
  await buyer
    .getByLabel('Photo (JPG, PNG, WebP or HEIC)')
    .setInputFiles(await photo('meet-here', 'png', 800, 600, '#5b2a86'));
  await buyer.getByRole('button', { name: 'Upload' }).click();
  // Converted to JPEG in the browser, then uploaded and stored: seconds on a busy machine.
  await expect(buyer.getByText('Image uploaded successfully!')).toBeVisible({ timeout: 30_000 });
  await expect(buyer.getByRole('log').getByAltText('Photo sent in the chat')).toHaveAttribute(
    'src',
    /\/uploads\/.+\.jpg$/,
  );
  await deskCtx.close();
});

test('photos picked before the page is ready are kept, and a HEIC is refused', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  const seller = await context.newPage();
  await registeredStudent(seller, 'Ines', 'Early');
  // The page arrives rendered by the server; its app script is held back, as on a slow phone network.
  const releaseScripts = await holdRequests(seller, APP_ENTRY);
  await seller.goto('/addlisting', { waitUntil: 'commit' });
  const input = seller.locator('input[type=file]');
  await expect(input).toBeAttached();
  const early = await photo('early', 'png', 800, 600, '#18453b');
  await input.setInputFiles([
    { name: 'early.png', mimeType: 'image/png', buffer: readFileSync(early) },
    {
      name: 'IMG_0043.heic',
      mimeType: 'image/heic',
      buffer: Buffer.from('....ftypheic not a photo this browser can open'),
    },
  ]);
  releaseScripts();
  const chosen = seller.getByRole('list', { name: 'Chosen photos' });
  await expect(chosen.getByRole('img')).toHaveCount(1);
  await expect(chosen.getByRole('img').first()).toHaveAccessibleName('Photo 1 of 1: early.png (cover)');
  await expect(
    seller.getByText('"IMG_0043.heic" cannot be opened in this browser. Choose a JPEG or PNG photo instead.'),
  ).toBeVisible();
  await context.close();
});
