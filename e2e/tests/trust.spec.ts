import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { makePhoto } from '../support/photo.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';

/** The API as the logged-in page calls it (same origin, the page's own token). */
async function apiAs<T>(page: Page, method: 'GET' | 'POST', url: string, data?: unknown): Promise<T> {
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const res = await page.request.fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  const type = res.headers()['content-type'] ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

async function myId(page: Page): Promise<number> {
  const info = await apiAs<{ id: number }>(page, 'GET', '/users/info');
  return info.id;
}

async function postListing(page: Page, name: string, price: number): Promise<number> {
  await apiAs(page, 'POST', '/listing', {
    name,
    category: 'LIFESTYLE',
    price: String(price),
    description: `${name}, picked up on campus.`,
  });
  const mine = await apiAs<Array<{ id: number; name: string }>>(page, 'GET', '/listings/self?limit=5');
  const listing = mine.find((l) => l.name === name);
  if (!listing) throw new Error('listing not found');
  return listing.id;
}

async function openSettingsItem(page: Page, name: string) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name }).click();
}

test('a student edits their profile, and the listing, chat header and inbox lead to it', async ({
  browser,
}) => {
  // Two students, three pages scanned by axe at two widths: longer than the default on a shared machine.
  test.slow();
  const viewport = { width: 1280, height: 800 };
  const sellerCtx = await browser.newContext({ viewport });
  const buyerCtx = await browser.newContext({ viewport });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Maya', 'Chen');
  await registeredStudent(buyer, 'Leo', 'Okafor');
  const mayaId = await myId(seller);
  await postListing(seller, 'Rice cooker', 20);

  // "My profile": Maya writes a bio and adds a photo.
  await openSettingsItem(seller, 'My profile');
  await expect(seller).toHaveURL(new RegExp(`/u/${mayaId}$`));
  await expect(seller.getByRole('heading', { name: 'Edit your profile' })).toBeVisible();
  await expect(seller.getByText('No ratings yet')).toBeVisible();
  await expect(seller.getByText('Shown after 3 meet-ups')).toBeVisible();
  await expect(seller.getByRole('button', { name: /^Report/ })).toHaveCount(0);
  await seller.getByLabel('Bio').fill('Econ junior at MSU. Happy to meet at the library.');
  await seller.getByRole('button', { name: 'Save bio' }).click();
  await expect(seller.getByText('Bio saved')).toBeVisible();
  await seller.getByTestId('avatar-input').setInputFiles(await makePhoto('avatar', 'MC'));
  await expect(seller.getByText('Profile photo updated')).toBeVisible();
  await expect(seller.getByRole('button', { name: 'Change photo' })).toBeVisible();
  await expectAccessible(seller, 'my-profile');
  await shoot(seller, 'my-profile');

  // Leo finds the listing; its seller line opens Maya's profile, without the edit form or an e-mail.
  await buyer.goto('/all_listings');
  await buyer
    .getByRole('link', { name: /Rice cooker/ })
    .first()
    .click();
  await buyer.getByRole('link', { name: /^Maya/ }).click();
  await expect(buyer).toHaveURL(new RegExp(`/u/${mayaId}$`));
  await expect(buyer.getByRole('heading', { level: 1, name: 'Maya Chen' })).toBeVisible();
  await expect(buyer.getByText('Econ junior at MSU. Happy to meet at the library.')).toBeVisible();
  await expect(buyer.getByText('Verified student')).toBeVisible();
  await expect(buyer.getByRole('list', { name: 'Listings by Maya' })).toContainText('Rice cooker');
  await expect(buyer.getByRole('heading', { name: 'Edit your profile' })).toHaveCount(0);
  await expect(buyer.locator('body')).not.toContainText('@msu.edu');
  await expectAccessible(buyer, 'profile');
  await shoot(buyer, 'profile');

  // Safety on the profile: Leo can report Maya (a short dialog) — never on his own profile.
  await buyer.getByRole('button', { name: 'Report Maya Chen' }).click();
  const report = buyer.getByRole('dialog', { name: 'Report this student' });
  await report.getByLabel('Spam').click();
  await expect(report.getByLabel('Spam')).toBeChecked();
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(report).toBeHidden();
  await expect(buyer.getByText(/a moderator will look at this/)).toBeVisible();

  // From the profile's listing to a chat: the chat header names Maya and links to her profile.
  await buyer
    .getByRole('list', { name: 'Listings by Maya' })
    .getByRole('link', { name: /Rice cooker/ })
    .click();
  await buyer.getByRole('button', { name: 'Chat with the seller' }).click();
  await buyer.getByPlaceholder('Type something').fill('Hi! Is the rice cooker still available?');
  await buyer.getByPlaceholder('Type something').press('Enter');
  await expect(buyer).toHaveURL(/\/chat\/\d+:\d+$/);
  await buyer.getByRole('link', { name: 'Maya Chen — view profile' }).first().click();
  await expect(buyer).toHaveURL(new RegExp(`/u/${mayaId}$`));

  // The inbox: each room's avatar opens the other student's profile.
  await seller.goto('/inbox');
  await seller.getByRole('link', { name: "Leo Okafor's profile" }).click();
  await expect(seller).toHaveURL(/\/u\/\d+$/);
  await expect(seller.getByRole('heading', { level: 1, name: 'Leo Okafor' })).toBeVisible();
  await expect(seller.getByText('For sale by Leo')).toBeVisible();
  // Block from the profile (confirmed), then Unblock from the same place.
  await seller.getByRole('button', { name: 'Block', exact: true }).click();
  const confirmBlock = seller.getByRole('dialog', { name: 'Block Leo?' });
  await confirmBlock.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(seller.getByText('Leo is blocked')).toBeVisible();
  await seller.getByRole('button', { name: 'Unblock' }).click();
  await expect(seller.getByText('Leo is unblocked')).toBeVisible();
  await expect(seller.getByRole('button', { name: 'Block', exact: true })).toBeVisible();

  // The deals page before any deal.
  await openSettingsItem(seller, 'Your deals');
  await expect(seller).toHaveURL(/\/my-deals$/);
  await expect(seller.getByRole('heading', { name: 'No deals yet' })).toBeVisible();
  await expectAccessible(seller, 'deals-empty');
  await shoot(seller, 'deals-empty');

  await sellerCtx.close();
  await buyerCtx.close();
});
