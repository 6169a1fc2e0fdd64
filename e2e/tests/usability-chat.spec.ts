// Usability and accessibility, as a keyboard-only student on a flaky network would meet it, with
// axe-core on every screen and on the states that matter, at 390 and 1280 px.
// This file: chat threads about several listings, and sold listings.
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { postListing } from '../support/listings.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';
import { holdToast } from '../support/toasts.js';
import { DESKTOP, PHONE } from '../support/viewports.js';

// Axe scans take seconds each on a busy machine: these journeys get room for them.
// Each journey is kept to a few minutes of a loaded machine; the budget is for the slowest case.
test.describe.configure({ timeout: 420_000 });

test('chat shows which listing each part of the thread is about; sold listings close to new buyers', async ({
  browser,
}) => {
  const sellerCtx = await browser.newContext({ viewport: DESKTOP });
  const buyerCtx = await browser.newContext({ viewport: DESKTOP });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Sam', 'Lee');
  await registeredStudent(buyer, 'Bea', 'Novak');
  const gamesId = await postListing(seller, {
    name: 'Board games bundle',
    price: 30,
    category: 'OTHER',
    description: 'Catan, Carcassonne and Ticket to Ride.',
  });
  const suitcaseId = await postListing(seller, {
    name: 'Large suitcase',
    price: 40,
    category: 'OTHER',
    description: 'Four wheels, fits two semesters of clothes.',
  });

  // The buyer asks about the board games, then about the suitcase, in the same thread.
  await buyer.goto(`/single_listing/${gamesId}`);
  await expectAccessible(buyer, 'listing-visitor');
  await buyer.getByRole('button', { name: 'Chat with the seller' }).click();
  const input = buyer.getByPlaceholder('Type something');
  await input.fill('Are all the pieces there?');
  await input.press('Enter');
  await expect(buyer).toHaveURL(/\/chat\/\d+:\d+$/);
  await expect(buyer.getByRole('log').getByText('Are all the pieces there?')).toBeVisible();
  // The messages are an ordered list inside the log, not a list that is itself the log.
  await expect(buyer.getByRole('log').getByRole('list').getByRole('listitem').first()).toBeVisible();
  await expect(buyer.locator('ol[role="log"], ul[role="log"]')).toHaveCount(0);

  // The photo panel takes focus; Escape closes it and focus goes back to the paperclip.
  await buyer.getByRole('button', { name: 'Attach a photo' }).click();
  await expect(buyer.getByLabel('Photo (JPG, PNG, WebP or HEIC)')).toBeFocused();
  await buyer.keyboard.press('Escape');
  await expect(buyer.getByRole('button', { name: 'Attach a photo' })).toBeFocused();

  await buyer.goto(`/single_listing/${suitcaseId}`);
  await buyer.getByRole('button', { name: 'Chat with the seller' }).click();
  await expect(buyer.getByText('Your next message is about')).toBeVisible();
  await buyer.getByPlaceholder('Type something').fill('Is the suitcase still available?');
  await buyer.getByPlaceholder('Type something').press('Enter');
  const log = buyer.getByRole('log');
  await expect(log.getByText('Is the suitcase still available?')).toBeVisible();

  // A divider at each change of listing; the header names the latest message's listing.
  await expect(log.getByRole('listitem', { name: 'About Board games bundle' })).toBeVisible();
  await expect(log.getByRole('listitem', { name: 'About Large suitcase' })).toBeVisible();
  await expect(buyer.getByRole('link', { name: 'About the listing Large suitcase' })).toBeVisible();
  await expect(log.locator('time').first()).toHaveText(/^Today \d{1,2}:\d{2}\s?(AM|PM)$/);

  // The seller opens the thread: the header follows the latest message, not the first listing.
  await seller.goto('/inbox');
  await seller.getByText('Bea Novak').first().click();
  await expect(seller.getByRole('log').getByText('Is the suitcase still available?')).toBeVisible();
  await expect(seller.getByRole('link', { name: 'About the listing Large suitcase' })).toBeVisible();
  await shoot(seller, 'usability-chat-dividers');
  await expectAccessible(seller, 'chat-with-messages');
  await seller.goto('/inbox');
  await expect(seller.getByText('Bea Novak').first()).toBeVisible();
  await expectAccessible(seller, 'inbox');

  // A sold listing says so and offers no chat to new buyers; the tab title counts unread.
  await seller.goto(`/single_listing/${suitcaseId}`);
  await expectAccessible(seller, 'listing-owner');
  await seller.getByRole('button', { name: 'Mark as Sold' }).click();
  await expect(seller.getByRole('button', { name: 'Mark as Unsold' })).toBeVisible();
  // The button flips at once (optimistic); the server has the sale only when the toast says so.
  // Loading the buyer's page before that could show the listing still available.
  await expect(seller.getByText('Marked as sold', { exact: true })).toBeVisible();
  await buyer.goto(`/single_listing/${suitcaseId}`);
  await expect(buyer.getByText('This item has been sold', { exact: false })).toBeVisible();
  await expect(buyer.getByRole('button', { name: 'Chat with the seller' })).toHaveCount(0);
  await shoot(buyer, 'usability-sold-listing');
  await expectAccessible(buyer, 'listing-sold');

  await buyer.goto('/dashboard');
  await seller.goto('/inbox');
  await seller.getByText('Bea Novak').first().click();
  await seller.getByPlaceholder('Type something').fill('Sorry, it just sold. The games are still here!');
  await seller.getByPlaceholder('Type something').press('Enter');
  await expect(buyer).toHaveTitle(/^\(1\) /);

  // Chat toasts open below the chat header, not over it.
  await buyer.goto('/inbox');
  await buyer.getByText('Sam Lee').first().click();
  await expect(buyer.getByRole('log').getByText('Sorry, it just sold.', { exact: false })).toBeVisible();
  await buyer.getByRole('button', { name: 'Attach a photo' }).click();
  for (const viewport of [PHONE, DESKTOP]) {
    await buyer.setViewportSize(viewport);
    await buyer.getByRole('button', { name: 'Upload' }).click();
    const toast = buyer.getByText('No File Uploaded');
    await expect(toast).toBeVisible();
    // Positions are read once the toast has stopped sliding in (held on screen by the hover).
    await holdToast(buyer, toast);
    const closeButton = buyer.getByRole('button', { name: 'Close', exact: true });
    const [toastBox, headerBox] = await Promise.all([toast.boundingBox(), closeButton.boundingBox()]);
    expect(toastBox && headerBox && toastBox.y > headerBox.y + headerBox.height).toBe(true);
    const label = viewport === PHONE ? 'phone' : 'desktop';
    await buyer.screenshot({ path: `artifacts/screens/usability-chat-toast-${label}.png` });
    await expectAccessible(buyer, `chat-toast-${viewport.width}`, { widths: [viewport.width], toasts: true });
    await buyer.getByRole('button', { name: 'Close toast' }).first().click();
    await expect(toast).toHaveCount(0);
  }

  await sellerCtx.close();
  await buyerCtx.close();
});
