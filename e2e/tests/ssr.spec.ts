import { expect, test } from '@playwright/test';
import { APP_ENTRY, holdRequests } from '../support/hold.js';
import { chatAboutListing, postLifestyleListing } from '../support/listings.js';
import { registeredStudent } from '../support/students.js';

/**
 * a logged-in page's first screen comes in its HTML (server-rendered with the `cm_token`
 * cookie the web app keeps beside its token), the browser then takes it over without throwing it
 * away, and logging out removes the cookie.
 */
test('a logged-in page paints from its HTML and is taken over by the app without errors', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /hydrat/i.test(msg.text())) problems.push(`${msg.type()}: ${msg.text()}`);
  });

  const student = await registeredStudent(page, 'Rene', 'Render');

  // The login left a cookie that mirrors the stored token: first-party, Lax, not a credential for the API.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const cookie = (await context.cookies()).find((c) => c.name === 'cm_token');
  expect(cookie?.value).toBe(token);
  expect(cookie?.sameSite).toBe('Lax');
  expect((await page.request.get('/users/me/safety')).status()).toBe(401);

  // The HTML itself holds the first screen, with the student's own data.
  const html = await (await page.request.get('/dashboard', { headers: { accept: 'text/html' } })).text();
  expect(html).toContain('data-ssr');
  expect(html).toContain(`Welcome back, ${student.firstName}!`);
  // The page's own chunk is named for the boot script beside the entry (no table in the boot script).
  expect(html).toMatch(/data-preload="[^"]*\/assets\/DashboardPage-[\w-]+\.js/);

  // Without any JavaScript at all, the page still shows it: it was painted from the HTML.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  await noJs.addCookies(await context.cookies());
  const still = await noJs.newPage();
  await still.goto('/dashboard');
  await expect(still.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, ${student.firstName}!`);
  await noJs.close();

  // With JavaScript, the app takes the markup over (hydration) and the page works as before.
  problems.length = 0;
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, ${student.firstName}!`);
  await page
    .getByRole('link', { name: /View Products/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/all_listings/);
  expect(problems).toEqual([]);

  // Logging out removes the cookie; the same page is then only the app shell (and the guard's redirect).
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Log Out' }).first().click();
  await expect(page).toHaveURL(/\/(login)?$/);
  expect((await context.cookies()).find((c) => c.name === 'cm_token')).toBeUndefined();
  const after = await (await page.request.get('/dashboard', { headers: { accept: 'text/html' } })).text();
  expect(after).not.toContain('data-ssr');
  expect(after).not.toContain('Welcome back');

  // Before the app has taken the page over, the login form is already there. A student who types
  // and sends it then is logged in once the app arrives — and the password never goes into a URL
  // (the browser's own submit would GET /login?email=…&password=…).
  // A fresh context without the service worker, which would answer the entry from its cache.
  const fresh = await browser.newContext({ serviceWorkers: 'block' });
  const early = await fresh.newPage();
  const release = await holdRequests(early, APP_ENTRY);
  const urls: string[] = [];
  early.on('request', (request) => urls.push(request.url()));
  await early.goto('/login');
  await early.getByLabel('Email').fill(student.email);
  await early.getByLabel('Password', { exact: true }).fill(student.password);
  await early.getByRole('button', { name: 'Login', exact: true }).click();
  expect(early.url()).toMatch(/\/login$/);
  release();
  await expect(early).toHaveURL(/\/dashboard$/);
  expect(urls.filter((u) => u.includes('password'))).toEqual([]);
  await fresh.close();
  await context.close();
});

test('a sort chosen before the app has taken the page over is applied once it has', async ({ browser }) => {
  // Without the service worker, which would answer the held script from its cache.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await registeredStudent(page, 'Sora', 'Early');
  const release = await holdRequests(page, APP_ENTRY);
  await page.goto('/cat_listing?categories=LIFESTYLE');
  await expect(page.locator('html[data-ssr]')).toHaveCount(1);
  // Hydration puts the server's option back into the select; the student's choice must win.
  await page.getByLabel('Sort by').selectOption('price_asc');
  release();
  await expect(page).toHaveURL(/sort=price_asc/);
  await expect(page.getByLabel('Sort by')).toHaveValue('price_asc');
  await context.close();
});

test('the offline copy of the app is the plain shell, never a page rendered with a student’s data', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await registeredStudent(page, 'Oona', 'Offline');
  await page.goto('/dashboard');
  // The service worker registers once the app is idle; then it handles the next navigations.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.goto('/all_listings');
  await expect(page.locator('html[data-ssr]')).toHaveCount(1);
  const shell = () =>
    page.evaluate(async () => {
      const cached = await (await caches.open('campus-shell-v1')).match('/index.html');
      return cached ? cached.text() : null;
    });
  await expect.poll(shell).not.toBeNull();
  const html = (await shell())!;
  expect(html).not.toContain('data-ssr');
  expect(html).not.toContain('Oona');
  expect(html).toContain('<div id="root"></div>');

  // Offline, any app page opens from that shell, and the app draws it in the browser.
  await context.setOffline(true);
  await page.goto('/all_listings');
  await expect(page.locator('html[data-ssr]')).toHaveCount(0);
  await expect(page.getByRole('banner')).toBeVisible();
  await context.close();
});

test('a chat sent with Enter before the app took over arrives, and a room without a live link catches up', async ({
  browser,
}) => {
  const item = 'Desk lamp with USB port';
  // The seller's phone is in another time zone than the server: the times the server drew must not
  // make the browser throw the page away (React error #418), losing the typed text and the Enter.
  const otherZone = new Date().getTimezoneOffset() === -540 ? 'America/Los_Angeles' : 'Asia/Tokyo';
  const sellerCtx = await browser.newContext({ serviceWorkers: 'block', timezoneId: otherZone });
  const buyerCtx = await browser.newContext({ serviceWorkers: 'block' });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Wren', 'Lowe');
  await registeredStudent(buyer, 'Ines', 'Blocked');
  await postLifestyleListing(seller, item, '12');

  await chatAboutListing(buyer, item);
  await buyer.getByPlaceholder('Type something').fill('Is the lamp still there?');
  await buyer.getByPlaceholder('Type something').press('Enter');
  await expect(buyer).toHaveURL(/\/chat\/\d+:\d+$/);
  const room = new URL(buyer.url()).pathname;

  // The buyer opens the room again where WebSockets never connect (a blocking network), and the
  // seller answers after the server rendered it but before the app took it over.
  const blocked = await buyerCtx.newPage();
  await blocked.routeWebSocket(/\/ws/, () => {});
  const release = await holdRequests(blocked, APP_ENTRY);
  await blocked.goto(room);
  const log = blocked.getByRole('log');
  await expect(log.getByText('Is the lamp still there?')).toBeVisible();

  // The seller types and presses Enter before the app has taken the room over: the message is sent
  // once it has (Enter would otherwise only have added a new line).
  const releaseSeller = await holdRequests(seller, APP_ENTRY);
  const sellerErrors: string[] = [];
  seller.on('pageerror', (err) => sellerErrors.push(err.message));
  await seller.goto(room);
  const composer = seller.getByPlaceholder('Type something');
  await composer.fill('Yes, come by after 5.');
  await composer.press('Enter');
  await expect(composer).toHaveValue('Yes, come by after 5.');
  releaseSeller();
  await expect(seller.getByRole('log').getByText('Yes, come by after 5.')).toBeVisible();
  await expect(composer).toHaveValue('');
  expect(sellerErrors).toEqual([]);
  // Once the app has taken over, times are in the seller's own zone.
  const firstTime = seller.getByRole('log').locator('time').first();
  const sentAt = (await firstTime.getAttribute('datetime'))!;
  const inZone = new Date(sentAt).toLocaleTimeString('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: otherZone,
  });
  await expect(firstTime).toContainText(inZone);
  await expect(log.getByText('Yes, come by after 5.')).toHaveCount(0);

  // Without the live link, the app loads what it would have caught up with at the connection.
  release();
  await expect(log.getByText('Yes, come by after 5.')).toBeVisible({ timeout: 15_000 });

  // The server draws times in the campus's zone (CAMPUS_TIMEZONE, America/Detroit by default), not
  // its own (UTC here): a phone on campus time is shown the same times by the HTML as by the app.
  const campusCtx = await browser.newContext({
    serviceWorkers: 'block',
    timezoneId: 'America/Detroit',
    javaScriptEnabled: false,
    storageState: await buyerCtx.storageState(),
  });
  const painted = await campusCtx.newPage();
  await painted.goto(room);
  const drawn = painted.getByRole('log').locator('time').first();
  const drawnAt = (await drawn.getAttribute('datetime'))!;
  await expect(drawn).toContainText(
    new Date(drawnAt).toLocaleTimeString('en-US', {
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'America/Detroit',
    }),
  );
  await campusCtx.close();
  await sellerCtx.close();
  await buyerCtx.close();
});

test('a form sent between hydration and the hand-over of its typed text waits for the text', async ({
  browser,
}) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const setup = await context.newPage();
  const student = await registeredStudent(setup, 'Hana', 'Handover');
  await setup.getByRole('button', { name: 'Log Out' }).first().click();
  await expect(setup).toHaveURL(/\/(login)?$/);
  await setup.close();

  const page = await context.newPage();
  const releaseApp = await holdRequests(page, APP_ENTRY);
  // The hand-over's code arrives late: the form is live before the typed text is in the app's state.
  const releaseHandover = await holdRequests(page, /\/assets\/earlyInput-[^/]+\.js$/);
  await page.goto('/login');
  await page.getByLabel('Email').fill(student.email);
  await page.getByLabel('Password', { exact: true }).fill(student.password);
  releaseApp();
  await expect
    .poll(() =>
      page.evaluate(() => {
        const form = document.querySelector('form');
        return form !== null && Object.keys(form).some((k) => k.startsWith('__reactFiber$'));
      }),
    )
    .toBe(true);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  // Not judged on the empty state the app had at that moment.
  await expect(page.getByText('Email is required')).toHaveCount(0);
  await expect(page.getByText('Password must be at least 8 characters')).toHaveCount(0);
  releaseHandover();
  await expect(page).toHaveURL(/\/dashboard$/);
  await context.close();
});

test('a switch tapped before the app has taken the page over is saved once it has', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await registeredStudent(page, 'Tomas', 'Toggle');
  const release = await holdRequests(page, APP_ENTRY);
  await page.goto('/settings/notifications');
  const priceDropEmail = page.getByRole('checkbox', { name: 'E-mail: Price drops on saved listings' });
  await expect(priceDropEmail).toBeChecked();
  await priceDropEmail.click();
  release();
  await expect(priceDropEmail).not.toBeChecked();
  // Saved on the server: the page rendered anew shows it off.
  await expect(async () => {
    await page.reload();
    await expect(priceDropEmail).not.toBeChecked({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await context.close();
});
