import { expect, test, type Page } from '@playwright/test';
import { makePhoto } from '../support/photo.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';
import { chatAboutListing } from '../support/listings.js';

const ITEM = 'Mini fridge, 3.1 cu ft';

const chatsLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Chats/ });

test('buyer and seller agree on a pickup in real time, with a photo and live unread counts', async ({
  browser,
}) => {
  const viewport = { width: 1280, height: 800 };
  const sellerCtx = await browser.newContext({ viewport });
  const buyerCtx = await browser.newContext({ viewport });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Maya', 'Chen');
  await registeredStudent(buyer, 'Leo', 'Okafor');

  await seller.goto('/addlisting');
  await seller.getByLabel('Name').fill(ITEM);
  await seller.getByLabel('Price').fill('60');
  await seller.getByLabel('Category').selectOption('LIFESTYLE');
  await seller.getByLabel('Description').fill('Cold, quiet, fits under a dorm desk. Pick up at Holmes Hall.');
  await seller.getByRole('button', { name: 'Add listing' }).click();
  await expect(seller).toHaveURL(/\/all_listings/);
  await seller.goto('/inbox');
  await expect(seller.getByText('No chats yet.')).toBeVisible();
  await shoot(seller, 'inbox-empty');

  // The buyer opens the listing and starts a chat.
  await chatAboutListing(buyer, ITEM);
  await expect(buyer).toHaveURL(/\/chat$/);
  await expect(buyer.getByText('Maya Chen').first()).toBeVisible();
  const input = buyer.getByPlaceholder('Type something');
  await expect(buyer.getByRole('button', { name: 'Send' })).toBeDisabled();
  await input.fill('Hi! Is the fridge still available?');
  await input.press('Enter');
  await expect(buyer).toHaveURL(/\/chat\/\d+:\d+$/);
  await expect(buyer.getByRole('log').getByText('Hi! Is the fridge still available?')).toBeVisible();

  // The seller's top bar counts it at once, and the inbox shows the room.
  await seller.goto('/dashboard');
  await expect(chatsLink(seller)).toContainText('1');
  await seller.goto('/inbox');
  const row = seller
    .getByRole('list', { name: 'Conversations' })
    .getByRole('link')
    .or(seller.getByRole('list', { name: 'Conversations' }).getByRole('button'))
    .first();
  await expect(row).toContainText('Leo Okafor');
  await expect(row).toContainText('1 Message');
  await shoot(seller, 'inbox');
  await seller.getByPlaceholder('Search chats').fill('nobody like this');
  await expect(seller.getByText('Leo Okafor')).toHaveCount(0);
  await seller.getByPlaceholder('Search chats').fill('leo oka');
  await seller.getByText('Leo Okafor').first().click();
  await expect(seller).toHaveURL(/\/chat\/\d+:\d+$/);
  await expect(seller.getByRole('log').getByText('Hi! Is the fridge still available?')).toBeVisible();

  // Replies arrive live on the other side; Shift+Enter makes a new line.
  const reply = seller.getByPlaceholder('Type something');
  await reply.fill('Yes! Library steps at 3?');
  await reply.press('Shift+Enter');
  await reply.pressSequentially('Bring a bag.');
  await reply.press('Enter');
  await expect(buyer.getByRole('log').getByText('Yes! Library steps at 3?')).toBeVisible();

  // A photo: no file says so, then the upload goes through and the seller sees it live.
  await buyer.getByRole('button', { name: 'Attach a photo' }).click();
  await buyer.getByRole('button', { name: 'Upload' }).click();
  await expect(buyer.getByText('No File Uploaded')).toBeVisible();
  await buyer.locator('input[type=file]').setInputFiles(await makePhoto('pickup-spot', 'Pickup spot'));
  await buyer.getByRole('button', { name: 'Upload' }).click();
  await expect(buyer.getByText('Image uploaded successfully!')).toBeVisible();
  await expect(seller.getByRole('log').locator('img[src*="/uploads/"]')).toBeVisible();
  await shoot(buyer, 'chat-buyer');
  await shoot(seller, 'chat-seller');

  // Both have read everything: no badges. Then a new message raises the buyer's badge live,
  // and reading it brings it back down.
  const roomUrl = seller.url();
  await buyer.goto('/dashboard');
  await expect(chatsLink(buyer)).toHaveText(/^\s*Chats\s*$/);
  await seller.goto('/dashboard');
  await expect(chatsLink(seller)).toHaveText(/^\s*Chats\s*$/);
  await seller.goto(roomUrl.replace(/^https?:\/\/[^/]+/, ''));
  await seller.getByPlaceholder('Type something').fill('See you there!');
  await seller.getByPlaceholder('Type something').press('Enter');
  await expect(chatsLink(buyer)).toContainText('1');
  await shoot(buyer, 'dashboard-unread');
  await buyer.goto('/inbox');
  await buyer.getByText('Maya Chen').first().click();
  await expect(buyer.getByRole('log').getByText('See you there!')).toBeVisible();
  await buyer.goto('/dashboard');
  await expect(chatsLink(buyer)).toHaveText(/^\s*Chats\s*$/);

  await sellerCtx.close();
  await buyerCtx.close();
});
