import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';

// The hand-off code is needed at the meet-up, where signal is worst (features.md §A): once fetched
// it stays on the buyer's device and shows offline; the chat says it is offline instead of
// spinning, and loads by itself when the network is back. The code leaves the device with the deal.

type Method = 'GET' | 'POST';

async function apiAs<T>(page: Page, method: Method, url: string, data?: unknown): Promise<T> {
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

const roomOf = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

/** The code this device keeps for the listing (null when none). */
const savedCode = (page: Page, userId: number, listingId: number) =>
  page.evaluate(
    ([u, l]) => {
      const raw = window.localStorage.getItem(`cm.handoff.${u}.${l}`);
      return raw ? (JSON.parse(raw) as { code: string }).code : null;
    },
    [userId, listingId] as const,
  );

/** Waits until the service worker controls the page, so an offline reload opens the app shell. */
async function controlledByServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

test('the reserved buyer sees the hand-off code offline, and a chat reopened offline says so', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const viewport = { width: 390, height: 844 };
  const sellerCtx = await browser.newContext({ viewport, serviceWorkers: 'block' });
  const buyerCtx: BrowserContext = await browser.newContext({ viewport });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Ines', 'Moreau');
  await registeredStudent(buyer, 'Tomas', 'Berg');
  const sellerId = (await apiAs<{ id: number }>(seller, 'GET', '/users/info')).id;
  const buyerId = (await apiAs<{ id: number }>(buyer, 'GET', '/users/info')).id;

  // A listing the seller reserves for the buyer by accepting the buyer's offer.
  const name = `Graphing calculator ${Date.now().toString(36).slice(-4)}`;
  await apiAs(seller, 'POST', '/listing', {
    name,
    category: 'LIFESTYLE',
    price: '45',
    description: `${name}, batteries included. Pick up on campus.`,
  });
  const mine = await apiAs<Array<{ id: number; name: string }>>(seller, 'GET', '/listings/self?limit=5');
  const listingId = mine.find((l) => l.name === name)!.id;
  const offer = await apiAs<{ id: number }>(buyer, 'POST', `/listings/${listingId}/offers`, { amount: '40' });
  await apiAs(seller, 'POST', `/offers/${offer.id}/accept`);
  const room = roomOf(sellerId, buyerId);

  // With signal, the buyer opens the chat: the deal bar offers the code, which is kept on the device.
  await controlledByServiceWorker(buyer);
  await buyer.goto(`/chat/${room}`);
  const dealBar = buyer.getByRole('region', { name: 'Deal' });
  // A shared, loaded machine: the first chat screen may take longer than the default 10 s.
  await expect(dealBar).toContainText('Reserved for you', { timeout: 60_000 });
  await expect(buyer.getByRole('button', { name: 'Show hand-off code' })).toBeVisible();
  const { code } = await apiAs<{ code: string }>(buyer, 'GET', `/listings/${listingId}/handoff`);
  await expect.poll(() => savedCode(buyer, buyerId, listingId)).toBe(code);

  // At the meet-up there is no signal: the code shows from the device, and the dialog says why.
  await buyerCtx.setOffline(true);
  await expect(buyer.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible();
  await buyer.getByRole('button', { name: 'Show hand-off code' }).click();
  const dialog = buyer.getByRole('dialog', { name: 'Your hand-off code' });
  await expect(dialog.getByTestId('handoff-code')).toHaveText(code);
  await expect(dialog.getByText('You are offline. This code is saved on this device')).toBeVisible();
  await expect(dialog.getByText('Loading your code…')).toHaveCount(0);
  await shoot(buyer, 'offline-handoff-code');
  await expectAccessible(buyer, 'offline-handoff-code');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The chat reopened without signal: a clear offline state with the saved code, not a spinner.
  await buyer.reload();
  const offline = buyer.getByRole('region', { name: 'Conversation' });
  await expect(offline.getByRole('heading', { name: 'You are offline' })).toBeVisible({ timeout: 60_000 });
  await expect(offline.getByText('This conversation loads as soon as you are back online.')).toBeVisible();
  await expect(offline.getByText('Loading the conversation…')).toHaveCount(0);
  const saved = offline.getByRole('region', { name: `Your hand-off code for ${name}` });
  await expect(saved.getByTestId('handoff-code')).toHaveText(code);
  // Still offline once the chats list has failed for good (its retries are over): no "unknown room".
  await buyer.setViewportSize({ width: 1280, height: 800 });
  await expect(buyer.getByText('Could not load your chats.')).toBeVisible({ timeout: 60_000 });
  await expect(offline.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await expect(offline.getByText('No messages in this conversation yet')).toHaveCount(0);
  await expect(saved.getByTestId('handoff-code')).toHaveText(code);
  await buyer.setViewportSize(viewport);
  await shoot(buyer, 'offline-chat-reopened');
  await expectAccessible(buyer, 'offline-chat-reopened');

  // Signal again: the conversation loads by itself.
  await buyerCtx.setOffline(false);
  await expect(buyer.getByRole('region', { name: 'Deal' })).toContainText('Reserved for you', {
    timeout: 60_000,
  });
  await expect(buyer.getByRole('log').getByText('accepted your offer of', { exact: false })).toBeVisible();

  // The seller confirms the hand-off: the deal is done, and the code leaves the buyer's device.
  await apiAs(seller, 'POST', `/listings/${listingId}/handoff`, { code });
  await expect(buyer.getByRole('log').getByText(`Hand-off confirmed: ${name} sold for $40`)).toBeVisible();
  await expect.poll(() => savedCode(buyer, buyerId, listingId)).toBeNull();

  await sellerCtx.close();
  await buyerCtx.close();
});
