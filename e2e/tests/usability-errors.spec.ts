// Usability and accessibility, as a keyboard-only student on a flaky network would meet it, with
// axe-core on every screen and on the states that matter, at 390 and 1280 px.
// This file: errors, deleting, Back, offline screens, focus and sessions.
import { expect, test, type Browser } from '@playwright/test';
import { gotoBrowserRendered } from '../support/browserRendered.js';
import { expectAccessible } from '../support/axe.js';
import { postListing } from '../support/listings.js';
import { shoot } from '../support/shots.js';
import { logIn, registeredStudent, type E2EStudent } from '../support/students.js';
import { expectToastCloseTarget, holdToast } from '../support/toasts.js';
import { DESKTOP, PHONE } from '../support/viewports.js';

// Axe scans take seconds each on a busy machine: these journeys get room for them.
// Each journey is kept to a few minutes of a loaded machine; the budget is for the slowest case.
test.describe.configure({ timeout: 420_000 });

async function newLoggedInPage(browser: Browser, student: E2EStudent, viewport = DESKTOP) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  await logIn(page, student);
  await expect(page).toHaveURL(/\/dashboard/);
  return { ctx, page };
}

test('honest errors, keyboard-safe delete, Back, offline screens, focus and sessions', async ({
  browser,
}) => {
  // No service worker here: it would answer the chunk request from its precache, past page.route,
  // and the failed-chunk screen could never be reached.
  const ctx = await browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const ben = await registeredStudent(page, 'Ben', 'Okafor');
  const lampId = await postListing(page, {
    name: 'Clamp lamp for desks',
    price: 12,
    category: 'LIFESTYLE',
    description: 'Clips onto any shelf.',
  });
  // A second listing, so the list (and the focus target after a delete) remains.
  await postListing(page, {
    name: 'Wooden desk organiser',
    price: 8,
    category: 'LIFESTYLE',
    description: 'Five compartments.',
  });

  // A load failure shows the error and "Try again", never an empty state.
  await page.route(/\/listings\/self/, (route) => route.abort());
  await gotoBrowserRendered(page, '/personalListings');
  await expect(page.getByText('We could not load your listings right now.')).toBeVisible();
  await expect(page.getByText('You have no listings yet')).toHaveCount(0);
  await shoot(page, 'usability-load-error');
  await expectAccessible(page, 'load-error');
  await page.unroute(/\/listings\/self/);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('link', { name: /Clamp lamp/ })).toBeVisible();
  await page.route(/\/listings(\?|$)/, (route) => route.abort());
  await gotoBrowserRendered(page, '/all_listings');
  await expect(page.getByText('We could not load listings right now.')).toBeVisible();
  await expect(page.getByText(/snapped up/)).toHaveCount(0);
  await page.unroute(/\/listings(\?|$)/);

  // Delete asks inline; focus on Cancel; Escape cancels and focus returns to the card.
  await page.goto('/personalListings');
  const lampDelete = page.locator(`#delete-${lampId}`);
  await lampDelete.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'This action is permanent. Delete listing?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await shoot(page, 'usability-delete-confirm');
  await expectAccessible(page, 'delete-confirm-open');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(lampDelete).toBeFocused();
  await expect(page.getByRole('link', { name: /Clamp lamp/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: /Clamp lamp/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Your listings' })).toBeFocused();
  await expectAccessible(page, 'personal-listings');

  // Back on a page opened from a shared link stays in the app.
  const shared = await ctx.newPage();
  await shared.goto('/all_listings?query=notes');
  await shared.getByRole('button', { name: 'Back' }).click();
  await expect(shared).toHaveURL(/\/dashboard$/);
  await shared.close();

  // A screen whose code cannot load keeps the top bar and offers a retry in the page.
  await page.goto('/dashboard');
  await page.route(/\/assets\/AddListingPage-[^/]+\.js/, (route) => route.abort());
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: '+ Sell' }).click();
  await expect(page.getByRole('alert').getByText('This page could not be loaded')).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Listings' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await shoot(page, 'usability-chunk-error');
  await expectAccessible(page, 'chunk-error');
  await page.unroute(/\/assets\/AddListingPage-[^/]+\.js/);

  // Add listing with the server unreachable says so; counters; a cut note.
  await page.goto('/addlisting');
  await expect(page.getByText('0/120')).toBeVisible();
  await page.getByLabel('Name').fill('x'.repeat(130));
  await expect(page.getByText('The pasted name was cut to 120 characters.')).toBeVisible();
  await expect(page.getByText('120/120')).toBeVisible();
  await expect(page.getByText('0/900')).toBeVisible();
  await page.getByLabel('Description').fill('y'.repeat(950));
  await expect(page.getByText('The pasted description was cut to 900 characters.')).toBeVisible();
  await expect(page.getByText('900/900')).toBeVisible();
  await page.getByLabel('Name').fill('Mini fridge');
  await page.getByLabel('Price').fill('60');
  await page.getByLabel('Category').selectOption('LIFESTYLE');
  await page.getByLabel('Description').fill('Cold and quiet.');
  await expectAccessible(page, 'add-listing');
  await page.route(/\/listing$/, (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
  );
  // The toast lasts 3 s: raise it at each width and scan it there.
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.getByRole('button', { name: 'Add listing' }).click();
    const offline = page.getByText('We could not reach the server, so nothing was posted.', { exact: false });
    await expect(offline.first()).toBeVisible();
    await expect(page.getByText(/attach all required fields/)).toHaveCount(0);
    await holdToast(page, offline.first());
    const label = viewport === PHONE ? 'phone' : 'desktop';
    await page.screenshot({ path: `artifacts/screens/usability-offline-toast-${label}.png` });
    await expectAccessible(page, `error-toast-${viewport.width}`, { widths: [viewport.width], toasts: true });
    await expectToastCloseTarget(page, viewport === PHONE);
    // Closed by its button, so the next round raises a fresh one.
    await page.getByRole('button', { name: 'Close toast' }).first().click();
    await expect(offline).toHaveCount(0);
  }
  await page.unroute(/\/listing$/);

  // The phone menu closed with Escape gives focus back to the Menu button.
  await page.setViewportSize(PHONE);
  await page.goto('/dashboard');
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  await expect(page.getByRole('link', { name: 'Change your password' })).toBeVisible();
  await expectAccessible(page, 'phone-menu-open', { widths: [PHONE.width] });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: 'Change your password' })).toBeHidden();
  await expect(menu).toBeFocused();
  await page.setViewportSize(DESKTOP);

  // A device logged out by a password change elsewhere is told why.
  const other = await newLoggedInPage(browser, ben);
  await page.goto('/changePass');
  await expectAccessible(page, 'change-password');
  await page.getByLabel('Current password').fill(ben.password);
  await page.getByLabel('New password').fill('a-brand-new-passphrase-14');
  await page.getByRole('button', { name: 'Update My Password' }).click();
  await expect(page.getByText('Password updated', { exact: true })).toBeVisible();
  await other.page.goto('/personalListings');
  await expect(other.page).toHaveURL(/\/login/);
  await expect(other.page.getByText('Your password was changed. Log in again.')).toBeVisible();
  await shoot(other.page, 'usability-password-changed');
  await expectAccessible(other.page, 'login-password-changed');
  await other.ctx.close();
  await ctx.close();
});
