import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';

// features.md §H "Bundles" in the browser, on a phone: a buyer picks three of a seller's listings
// on the seller's profile, offers for the bundle, the seller accepts (all three reserved), one
// meet-up and one hand-off code confirm one deal with three items, and both students rate.

type Method = 'GET' | 'POST';

/** The API as the logged-in page calls it (same origin, the page's own token). */
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

async function postListing(page: Page, name: string, price: number): Promise<number> {
  await apiAs(page, 'POST', '/listing', {
    name,
    category: 'LIFESTYLE',
    price: String(price),
    description: `${name}, picked up on campus.`,
  });
  const mine = await apiAs<Array<{ id: number; name: string }>>(page, 'GET', '/listings/self?limit=10');
  const listing = mine.find((l) => l.name === name);
  if (!listing) throw new Error('listing not found');
  return listing.id;
}

const roomOf = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);
const unique = () => Date.now().toString(36).slice(-5);

test('a bundle of three items from picking to hand-off and reviews, on a phone', async ({ browser }) => {
  // Two students, many live round trips, axe and screenshots at two widths.
  test.setTimeout(300_000);
  const viewport = { width: 390, height: 844 };
  const sellerCtx = await browser.newContext({ viewport });
  const buyerCtx = await browser.newContext({ viewport });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Nadia', 'Brooks');
  await registeredStudent(buyer, 'Omar', 'Lindqvist');
  const sellerId = (await apiAs<{ id: number }>(seller, 'GET', '/users/info')).id;
  const buyerId = (await apiAs<{ id: number }>(buyer, 'GET', '/users/info')).id;
  const tag = unique();
  const names = [`Desk lamp ${tag}`, `Kettle ${tag}`, `Shoe rack ${tag}`];
  await postListing(seller, names[0]!, 20);
  await postListing(seller, names[1]!, 15);
  await postListing(seller, names[2]!, 12.5);
  await postListing(seller, `Poster ${tag}`, 5);

  // The buyer picks three listings on the seller's profile: the tray adds up their prices.
  await buyer.goto(`/u/${sellerId}`);
  for (const name of names) {
    // The listing's name follows the visible words in the accessible name (a hidden span).
    await buyer.getByRole('button', { name: new RegExp(`^Add to bundle\\W+${name}$`) }).click();
    await expect(buyer.getByRole('button', { name: new RegExp(`^In bundle\\W+${name}$`) })).toBeVisible();
  }
  const tray = buyer.getByRole('region', { name: 'Bundle · 3 items' });
  await expect(tray).toContainText('Asking $47.50 in total');
  await expect(tray.getByRole('list', { name: 'Items in the bundle' }).getByRole('listitem')).toHaveCount(3);
  await expectAccessible(buyer, 'bundles-tray');
  await shoot(buyer, 'bundles-tray');

  // "Offer for the bundle", pre-filled with the sum; the buyer offers less.
  await tray.getByRole('button', { name: 'Offer for the bundle' }).click();
  const dialog = buyer.getByRole('dialog', { name: 'Offer for the bundle' });
  const amount = dialog.getByLabel('Your offer for all of them ($)');
  await expect(amount).toHaveValue('47.5');
  await amount.fill('40');
  await expectAccessible(buyer, 'bundles-offer-dialog');
  await shoot(buyer, 'bundles-offer-dialog');
  await dialog.getByRole('button', { name: 'Send bundle offer' }).click();
  await expect(buyer).toHaveURL(/\/chat/);
  const buyerCard = buyer.getByRole('article', { name: 'You offered $40 for 3 items' });
  await expect(buyerCard.getByRole('list', { name: 'Items in this bundle' })).toContainText(names[2]!);
  await expect(buyerCard.getByRole('button', { name: 'Withdraw' })).toBeVisible();

  // The seller sees the items and accepts: every listing is reserved.
  const room = roomOf(sellerId, buyerId);
  await seller.goto(`/chat/${room}`);
  const sellerCard = seller.getByRole('article', { name: 'Omar offered $40 for 3 items' });
  await expect(sellerCard.getByRole('listitem')).toHaveCount(3);
  await expectAccessible(seller, 'bundles-offer-card');
  await shoot(seller, 'bundles-offer-card');
  await sellerCard.getByRole('button', { name: 'Accept' }).click();
  await expect(
    buyer.getByRole('log').getByText('Nadia accepted the bundle offer of $40. All 3 listings are reserved.'),
  ).toBeVisible();
  await expect(buyerCard.getByRole('status')).toHaveText('Accepted · reserved');

  // One meet-up for the bundle; the buyer accepts it.
  await seller.getByRole('button', { name: 'Propose a meet-up' }).click();
  const meetDialog = seller.getByRole('dialog', { name: 'Propose a meet-up' });
  await meetDialog.getByRole('radio', { name: /Student union lobby/ }).click();
  await meetDialog.getByRole('button', { name: 'Propose meet-up' }).click();
  await expect(meetDialog).toBeHidden();
  const meetCard = buyer.getByRole('article', { name: 'Nadia proposed a meet-up' });
  await meetCard.getByRole('button', { name: 'Accept' }).click();
  await expect(meetCard.getByRole('status')).toHaveText('Confirmed');

  // One hand-off code confirms all three.
  await buyer.getByRole('button', { name: 'Show hand-off code' }).click();
  const codeDialog = buyer.getByRole('dialog', { name: 'Your hand-off code' });
  const codeText = codeDialog.getByTestId('handoff-code');
  await expect(codeText).toHaveText(/^\d{4}$/);
  const code = (await codeText.textContent()) ?? '';
  await codeDialog.getByRole('button', { name: 'Done' }).click();
  await seller.getByRole('button', { name: 'Enter hand-off code' }).click();
  const entry = seller.getByRole('dialog', { name: 'Enter hand-off code' });
  await entry.getByLabel("Omar's 4-digit code").fill(code);
  await entry.getByRole('button', { name: 'Confirm hand-off' }).click();
  await expect(entry).toBeHidden();
  const soldLine = 'Hand-off confirmed: 3 items sold for $40 in total. You can now rate each other.';
  await expect(seller.getByRole('log').getByText(soldLine)).toBeVisible();
  await expect(buyer.getByRole('log').getByText(soldLine)).toBeVisible();
  for (const name of names) {
    const listing = (
      await apiAs<Array<{ name: string; status: string }>>(seller, 'GET', '/listings/self?limit=10')
    ).find((l) => l.name === name);
    expect(listing?.status).toBe('SOLD');
  }

  // Both rate the one deal.
  for (const [page, other, stars] of [
    [seller, 'Omar', 5],
    [buyer, 'Nadia', 4],
  ] as const) {
    await page.getByRole('button', { name: `Rate ${other}` }).click();
    const rate = page.getByRole('dialog', { name: `Rate ${other}` });
    const star = rate.getByRole('radio', { name: new RegExp(`^${stars} stars`) });
    await star.focus();
    await star.press('Space');
    await rate.getByRole('button', { name: 'Send review' }).click();
    await expect(page.getByRole('button', { name: `Rate ${other}` })).toHaveCount(0);
  }

  // The deal page lists the bundle's items.
  await buyer.goto('/my-deals');
  const deal = buyer.getByRole('article', { name: `${names[0]} + 2 more` });
  const items = deal.getByRole('list', { name: `Items of ${names[0]} + 2 more` });
  for (const name of names) await expect(items).toContainText(name);
  await expectAccessible(buyer, 'bundles-deal-page');
  await shoot(buyer, 'bundles-deal-page');

  await sellerCtx.close();
  await buyerCtx.close();
});
