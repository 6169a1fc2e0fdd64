import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { chatAboutListing, postLifestyleListing } from '../support/listings.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';

const ITEM = 'Vintage brass desk lamp';

const bell = (page: Page) =>
  page
    .getByRole('link', { name: /^Notifications/ })
    .filter({ visible: true })
    .first();

async function api(page: Page, method: 'POST' | 'GET', path: string, data?: unknown) {
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const res = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()}`).toBe(true);
  return res;
}

test('the bell counts up live, the centre and settings work, and the app is installable', async ({
  browser,
}) => {
  // Two sign-ups, two pages and four axe scans on a shared, loaded machine.
  test.setTimeout(180_000);
  const viewport = { width: 1280, height: 800 };
  const sellerCtx = await browser.newContext({ viewport });
  const buyerCtx = await browser.newContext({ viewport });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Maya', 'Chen');
  await registeredStudent(buyer, 'Leo', 'Okafor');

  // The buyer saves a search and waits on the dashboard.
  await api(buyer, 'POST', '/searches', { query: 'desk lamp' });
  await buyer.goto('/dashboard');
  await expect(bell(buyer)).toHaveAccessibleName('Notifications');

  // The seller lists a matching lamp: the buyer's bell counts up without a reload.
  await postLifestyleListing(seller, ITEM, '25');
  await expect(bell(buyer)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(buyer.getByTestId('bell-count').filter({ visible: true })).toHaveText('1');
  await shoot(buyer, 'notifications-bell');

  // The centre lists it; opening it marks it read and the bell clears.
  await bell(buyer).click();
  await expect(buyer).toHaveURL(/\/notification-centre$/);
  const list = buyer.getByRole('list', { name: 'Notifications' });
  await expect(list.getByRole('link').first()).toContainText('New listing for “desk lamp”');
  await expect(list.getByRole('link').first()).toContainText(`${ITEM} — $25`);
  await expect(bell(buyer)).toHaveAccessibleName('Notifications');
  // A reload, and an old bookmark of /notifications (the API's path), open the page, never JSON.
  for (const address of ['/notification-centre', '/notifications']) {
    await buyer.goto(address);
    await expect(buyer).toHaveURL(/\/notification-centre$/);
    await expect(list.getByRole('link').first()).toContainText(`${ITEM} — $25`);
  }
  await buyer.reload();
  await expect(list.getByRole('link').first()).toContainText(`${ITEM} — $25`);
  await shoot(buyer, 'notifications-centre-reloaded');
  await expectAccessible(buyer, 'notifications-centre');
  await list.getByRole('link').first().click();
  await expect(buyer).toHaveURL(/\/single_listing\/\d+$/);
  await expect(buyer.getByRole('heading', { name: ITEM })).toBeVisible();

  // Settings: switches per kind and channel, saved on the server.
  await buyer.goto('/settings/notifications');
  const priceDropEmail = buyer.getByRole('checkbox', { name: 'E-mail: Price drops on saved listings' });
  await expect(priceDropEmail).toBeChecked();
  // The switch is controlled by the query cache, which re-renders one tick after the click;
  // wait for what the student sees rather than asking Playwright to check the state at once.
  await priceDropEmail.click();
  await expect(priceDropEmail).not.toBeChecked();
  await expect
    .poll(async () => {
      const res = await api(buyer, 'GET', '/users/me/notification-settings');
      return ((await res.json()) as { kinds: { PRICE_DROP: { email: boolean } } }).kinds.PRICE_DROP.email;
    })
    .toBe(false);
  await expect(buyer.getByRole('heading', { name: 'Push notifications on this device' })).toBeVisible();
  await shoot(buyer, 'notifications-settings');
  await expectAccessible(buyer, 'notifications-settings');

  // Installable: a valid manifest with 192/512 and maskable icons, and an active service worker.
  const manifestHref = await buyer.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestHref).toBeTruthy();
  const manifestRes = await buyer.request.get(manifestHref!);
  expect(manifestRes.headers()['content-type']).toContain('manifest+json');
  const manifest = (await manifestRes.json()) as {
    name: string;
    short_name: string;
    display: string;
    theme_color: string;
    start_url: string;
    icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
  };
  expect(manifest).toMatchObject({ name: 'Campus Market', display: 'standalone', theme_color: '#18453b' });
  expect(manifest.short_name.length).toBeLessThanOrEqual(15);
  for (const size of [192, 512]) {
    const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}` && i.purpose !== 'maskable');
    expect(icon, `${size}px icon`).toBeDefined();
    const png = await (await buyer.request.get(icon!.src)).body();
    // PNG IHDR: width and height at bytes 16–23.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
  }
  expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  expect((await buyer.request.get(manifest.start_url, { headers: { accept: 'text/html' } })).ok()).toBe(true);
  await expect
    .poll(
      () =>
        buyer.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration('/');
          return reg?.active?.state ?? 'none';
        }),
      { timeout: 20_000 },
    )
    .toBe('activated');
  // The worker never answers API calls from a cache: a fresh answer each time.
  const counts = await buyer.evaluate(async () => {
    const token = window.localStorage.getItem('token');
    const get = () =>
      fetch('/notifications', { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    return [await get(), await get()];
  });
  expect(counts).toEqual([200, 200]);

  await sellerCtx.close();
  await buyerCtx.close();
});

test('a second student sees “typing…” and “Seen” live', async ({ browser }) => {
  test.setTimeout(180_000);
  const viewport = { width: 1280, height: 800 };
  const sellerCtx = await browser.newContext({ viewport });
  const buyerCtx = await browser.newContext({ viewport });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Nora', 'Patel');
  await registeredStudent(buyer, 'Sam', 'Rivera');
  await postLifestyleListing(seller, 'Reading lamp with clamp', '15');

  await chatAboutListing(buyer, /Reading lamp with clamp/);
  const input = buyer.getByPlaceholder('Type something');
  await input.fill('Hi! Could I pick it up tonight?');
  await input.press('Enter');
  await expect(buyer).toHaveURL(/\/chat\/\d+:\d+$/);
  const roomUrl = new URL(buyer.url()).pathname;
  const buyerPresence = buyer.getByTestId('chat-presence');
  await expect(buyerPresence).toBeEmpty();

  // The seller opens the conversation: the buyer sees "Seen" under their message.
  await seller.goto(roomUrl);
  await expect(seller.getByRole('log').getByText('Hi! Could I pick it up tonight?')).toBeVisible();
  await expect(buyerPresence).toHaveText('Seen');

  // The seller types: the buyer sees it live, and it goes away when the message arrives.
  await seller.getByPlaceholder('Type something').pressSequentially('Sure', { delay: 30 });
  await expect(buyerPresence).toHaveText('Nora is typing…');
  await shoot(buyer, 'chat-typing');
  await expectAccessible(buyer, 'chat-typing', { widths: [1280] });
  await seller.getByPlaceholder('Type something').press('Enter');
  await expect(buyer.getByRole('log').getByText('Sure')).toBeVisible();
  await expect(buyerPresence).not.toHaveText('Nora is typing…');

  await sellerCtx.close();
  await buyerCtx.close();
});
