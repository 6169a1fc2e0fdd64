// Phone-first navigation: the bottom tab bar (Home · Search · Sell · Chats · Me) on a 390 px phone,
// its live Chats count, where it is not shown (a chat room, a desktop), and two phone fixes: toasts
// open below the top bar, and "Report" buttons are large enough to tap.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { postListing } from '../support/listings.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';
import { holdToast } from '../support/toasts.js';
import { DESKTOP, PHONE } from '../support/viewports.js';

// Two students, axe at two widths and screenshots: room for a busy machine.
test.describe.configure({ timeout: 420_000 });

const tabBar = (page: Page) => page.getByRole('navigation', { name: 'Tab bar' });
const tab = (page: Page, name: string | RegExp) => tabBar(page).getByRole('link', { name, exact: true });

async function expectTapTarget(target: Locator, min: number): Promise<void> {
  const box = await target.boundingBox();
  expect(box, 'target is laid out').not.toBeNull();
  expect(Math.round(box!.height)).toBeGreaterThanOrEqual(min);
  expect(Math.round(box!.width)).toBeGreaterThanOrEqual(min);
}

/** Waits for a smooth scroll (the app scrolls smoothly) to end: the position holds for 3 frames. */
async function scrollSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    let still = 0;
    let last = window.scrollY;
    while (still < 3) {
      await frame();
      still = window.scrollY === last ? still + 1 : 0;
      last = window.scrollY;
    }
  });
}

/** Scrolled to the very bottom, the page's last content ends above the tab bar, not behind it. */
async function expectNothingBehindTabBar(page: Page): Promise<void> {
  const gap = await page.evaluate(() => {
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
    const bar = document.querySelector('[data-tab-bar]')!;
    const content = bar.previousElementSibling!;
    const last = content.lastElementChild ?? content;
    return bar.getBoundingClientRect().top - last.getBoundingClientRect().bottom;
  });
  expect(gap).toBeGreaterThanOrEqual(-1);
}

test('phone tab bar: one tap to every part, a live Chats count, out of the way in a chat room', async ({
  browser,
}) => {
  const sellerCtx = await browser.newContext({ viewport: PHONE });
  const buyerCtx = await browser.newContext({ viewport: PHONE });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Tess', 'Moreau');
  await registeredStudent(buyer, 'Omar', 'Haddad');
  const listingId = await postListing(seller, {
    name: 'Desk lamp with USB port',
    price: 15,
    category: 'LIFESTYLE',
    description: 'Bright LED desk lamp, charges your phone too. Pick up at Akers Hall.',
  });

  // Logged in on a phone: the tab bar is there, Home is the current tab, every tab is easy to tap.
  await seller.goto('/dashboard');
  await expect(tabBar(seller)).toBeVisible();
  await expect(tab(seller, 'Home')).toHaveAttribute('aria-current', 'page');
  await expect(tab(seller, 'Chats')).toHaveAccessibleName('Chats');
  for (const name of ['Home', 'Search', 'Sell', 'Chats', 'Me']) await expectTapTarget(tab(seller, name), 44);
  await expect(tabBar(seller).locator('[aria-current="page"]')).toHaveCount(1);
  await expectNothingBehindTabBar(seller);
  // The Menu button keeps no unread dot (the Chats tab says it), so its name is just "Menu".
  // Open on a short phone, the menu scrolls inside itself: its last entry clears the tab bar.
  const menu = seller.getByRole('banner').getByRole('button', { name: 'Menu' });
  await seller.setViewportSize({ width: 375, height: 667 });
  await menu.click();
  const logOut = seller.getByRole('banner').getByRole('button', { name: 'Log Out' });
  await logOut.scrollIntoViewIfNeeded();
  await scrollSettled(seller);
  const [logOutBox, menuBarBox] = await Promise.all([logOut.boundingBox(), tabBar(seller).boundingBox()]);
  expect(logOutBox!.y + logOutBox!.height).toBeLessThanOrEqual(menuBarBox!.y + 1);
  await seller.screenshot({ path: '/tmp/shots-tabbar/tabbar-menu-375x667.png' });
  await seller.keyboard.press('Escape');
  await expect(menu).toBeFocused();
  await seller.setViewportSize(PHONE);

  // "Report listing" is a full-size tap target: 44 px on a phone, at least 24 px on a desktop.
  await buyer.goto(`/single_listing/${listingId}`);
  await expect(tabBar(buyer)).toBeVisible();
  await expect(tabBar(buyer).locator('[aria-current="page"]')).toHaveCount(0);
  const report = buyer.getByRole('button', { name: 'Report listing' });
  await expectTapTarget(report, 44);
  // Reached with the keyboard, it stops above the tab bar, not under it (focus not obscured).
  await buyer.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await report.focus();
  await scrollSettled(buyer);
  const [reportBox, buyerBarBox] = await Promise.all([report.boundingBox(), tabBar(buyer).boundingBox()]);
  expect(reportBox!.y + reportBox!.height).toBeLessThanOrEqual(buyerBarBox!.y + 1);
  await buyer.screenshot({ path: '/tmp/shots-tabbar/tabbar-listing-390.png' });
  await buyer.setViewportSize(DESKTOP);
  await expectTapTarget(report, 24);
  await expect(tabBar(buyer)).toBeHidden();
  await buyer.setViewportSize(PHONE);

  // The buyer writes; inside the chat room the composer has the bottom of the screen to itself.
  await buyer.getByRole('button', { name: 'Chat with the seller' }).click();
  const input = buyer.getByPlaceholder('Type something');
  await input.fill('Hi! Does the lamp dim?');
  await input.press('Enter');
  await expect(buyer).toHaveURL(/\/chat\/\d+:\d+$/);
  await expect(buyer.getByRole('log').getByText('Hi! Does the lamp dim?')).toBeVisible();
  await expect(tabBar(buyer)).toHaveCount(0);

  // The seller's Chats tab counts it live, and says so to a screen reader.
  await expect(tab(seller, 'Chats, 1 unread')).toBeVisible();
  await expect(tab(seller, 'Chats, 1 unread')).toContainText('1');
  await shoot(seller, 'phone-tabbar-unread');
  await seller.screenshot({ path: '/tmp/shots-tabbar/tabbar-unread-390.png' });
  await expectAccessible(seller, 'phone-tabbar-dashboard');
  // From md up the desktop top bar carries the links; the tab bar is not shown.
  await seller.setViewportSize(DESKTOP);
  await expect(tabBar(seller)).toBeHidden();
  await expect(
    seller
      .getByRole('navigation', { name: 'Main' })
      .first()
      .getByRole('link', { name: /^Chats/ }),
  ).toContainText('1');
  await seller.screenshot({ path: '/tmp/shots-tabbar/tabbar-desktop-1280.png' });
  await seller.setViewportSize(PHONE);

  // Navigating by tabs: each lands on its page and becomes the current tab.
  await tab(seller, 'Search').click();
  await expect(seller).toHaveURL(/\/all_listings/);
  await expect(tab(seller, 'Search')).toHaveAttribute('aria-current', 'page');
  await expect(seller.getByRole('link', { name: /Desk lamp with USB port/ }).first()).toBeVisible();
  await expectNothingBehindTabBar(seller);
  // The filter panel's sticky "Show results" sits above the tab bar, not behind it.
  await seller.getByRole('button', { name: /Show filters/ }).click();
  const showResults = seller.getByRole('button', { name: /^Show \d+\+? results?$/ });
  await expect(showResults).toBeInViewport();
  const [resultsBox, barBox] = await Promise.all([showResults.boundingBox(), tabBar(seller).boundingBox()]);
  expect(resultsBox!.y + resultsBox!.height).toBeLessThanOrEqual(barBox!.y);
  await seller.screenshot({ path: '/tmp/shots-tabbar/tabbar-filters-390.png' });
  await showResults.click();

  await tab(seller, 'Sell').click();
  await expect(seller).toHaveURL(/\/addlisting$/);
  await expect(tab(seller, 'Sell')).toHaveAttribute('aria-current', 'page');
  await expect(seller.getByLabel('Name')).toBeVisible();
  await expectNothingBehindTabBar(seller);

  await tab(seller, 'Me').click();
  await expect(seller).toHaveURL(/\/u\/\d+$/);
  await expect(tab(seller, 'Me')).toHaveAttribute('aria-current', 'page');
  await expect(seller.getByText('Your listings for sale')).toBeVisible();
  await seller.screenshot({ path: '/tmp/shots-tabbar/tabbar-me-390.png', fullPage: true });

  await tab(seller, 'Chats, 1 unread').click();
  await expect(seller).toHaveURL(/\/inbox$/);
  await expect(tab(seller, /^Chats/)).toHaveAttribute('aria-current', 'page');
  await expectAccessible(seller, 'phone-tabbar-inbox', { widths: [PHONE.width] });
  await seller.getByText('Omar Haddad').first().click();
  await expect(seller).toHaveURL(/\/chat\/\d+:\d+$/);
  await expect(seller.getByRole('log').getByText('Hi! Does the lamp dim?')).toBeVisible();
  await expect(tabBar(seller)).toHaveCount(0);
  // A message's "Report" is a full-size tap target too.
  await expectTapTarget(seller.getByRole('button', { name: /^Report message from Omar Haddad/ }), 44);
  await seller.screenshot({ path: '/tmp/shots-tabbar/tabbar-chatroom-390.png' });

  // Read: back on Home, the count is gone.
  await seller.goto('/dashboard');
  await expect(tab(seller, 'Chats')).toHaveAccessibleName('Chats');
  await tab(seller, 'Home').click();
  await expect(tab(seller, 'Home')).toHaveAttribute('aria-current', 'page');

  // A toast on a phone opens below the top bar instead of covering its buttons.
  await seller.goto(`/single_listing/${listingId}`);
  await seller.getByRole('button', { name: 'Mark as Sold' }).click();
  const toast = seller.getByText('Marked as sold', { exact: true });
  await expect(toast).toBeVisible();
  await holdToast(seller, toast);
  const [toastBox, topBarBox] = await Promise.all([
    toast.boundingBox(),
    seller.getByRole('banner').boundingBox(),
  ]);
  expect(toastBox && topBarBox && toastBox.y >= topBarBox.y + topBarBox.height).toBe(true);
  await seller.screenshot({ path: '/tmp/shots-tabbar/tabbar-toast-390.png' });
  await expectAccessible(seller, 'phone-tabbar-toast', { widths: [PHONE.width], toasts: true });

  // Logged out: no tab bar.
  const anon = await browser.newPage({ viewport: PHONE });
  await anon.goto('/login');
  await expect(anon.getByLabel('Email')).toBeVisible();
  await expect(tabBar(anon)).toHaveCount(0);
  await anon.close();
  await sellerCtx.close();
  await buyerCtx.close();
});
