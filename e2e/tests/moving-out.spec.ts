import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { shoot } from '../support/shots.js';
import { CAMPUS_DOMAINS, registeredStudent } from '../support/students.js';
import { PHONE } from '../support/viewports.js';

// features.md §H "Moving out" on a phone: a student sets a move-out date with automatic price
// steps; their listings say "Must go by"; during the campus's move-out season (UW's, in the test
// server) the dashboard leads with the moving-out shelf; the server's clock moves past the 7-day
// step (POST /e2e/clock, never a sleep) and the shelf shows the lowered price.

const DAY = 24 * 3_600_000;
const UW_ZONE = 'America/Los_Angeles';

type Method = 'GET' | 'POST' | 'PUT';

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
    description: `${name}, must go before I move out.`,
  });
  const mine = await apiAs<Array<{ id: number; name: string }>>(page, 'GET', '/listings/self?limit=5');
  const listing = mine.find((l) => l.name === name);
  if (!listing) throw new Error('listing not found');
  return listing.id;
}

/** The campus day `days` from now in UW's zone (YYYY-MM-DD). */
function uwDay(days: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: UW_ZONE }).format(Date.now() + days * DAY);
  return parts; // en-CA formats as YYYY-MM-DD
}

test.afterAll(async ({ request }) => {
  // Later journeys on this server see real time again.
  await request.post('/e2e/clock', { data: { reset: true } });
});

test('a student moving out: Must go by, the season shelf, and an automatic price step', async ({
  browser,
}) => {
  test.slow();
  const sellerCtx = await browser.newContext({ viewport: PHONE });
  const buyerCtx = await browser.newContext({ viewport: PHONE });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Lena', 'Park', CAMPUS_DOMAINS.uw);
  await registeredStudent(buyer, 'Kai', 'Nakamura', CAMPUS_DOMAINS.uw);
  const tag = Date.now().toString(36).slice(-5);
  const desk = `Standing desk ${tag}`;
  await postListing(seller, desk, 100);
  await postListing(seller, `Floor lamp ${tag}`, 40);

  // The seller sets a move-out date nine days ahead, with automatic price steps, on My Listings.
  const date = uwDay(9);
  await seller.goto('/personalListings');
  const form = seller.getByRole('region', { name: 'Moving out?' });
  await form.getByRole('button', { name: 'Set a move-out date' }).click();
  await form.getByLabel('Move-out date').fill(date);
  await expect(form.getByLabel(/Lower my prices automatically/)).toBeChecked();
  await form.getByLabel(/Never below/).fill('50');
  await form.getByLabel(/Take what is left off the market/).check();
  await form.getByRole('button', { name: 'Save plan' }).click();
  await expect(form).toContainText('Prices drop automatically, never below 50 %');
  const mustGo = new RegExp(
    `Must go by ${new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })}`,
  );
  const sellerCard = seller.getByRole('article').filter({ hasText: desk });
  await expect(sellerCard).toContainText(mustGo);
  await shoot(seller, 'moving-out-my-listings');
  await expectAccessible(seller, 'moving-out-my-listings');

  // The buyer's dashboard leads with the moving-out shelf: UW is in its move-out season.
  await buyer.goto('/dashboard');
  const shelf = buyer.getByRole('region', { name: /Moving out: it's move-out season/ });
  await expect(shelf).toBeVisible();
  const shelfCard = shelf.getByRole('article').filter({ hasText: desk });
  await expect(shelfCard).toContainText('$100');
  await expect(shelfCard).toContainText(mustGo);
  // The shelf comes before everything else on the page.
  const firstSection = buyer.locator('main section').first();
  await expect(firstSection).toHaveAccessibleName(/Moving out/);
  await shoot(buyer, 'moving-out-dashboard-season');
  await expectAccessible(buyer, 'moving-out-dashboard-season');

  // Two days and an hour later on the server's clock the 7-day step is due: 20 % off.
  const moved = await buyer.request.post('/e2e/clock', { data: { advanceMs: 2 * DAY + 3_600_000 } });
  expect(moved.ok()).toBe(true);
  await buyer.goto('/moving_out');
  const feedCard = buyer.getByRole('article').filter({ hasText: desk });
  await expect(async () => {
    await buyer.reload();
    await expect(feedCard).toContainText('$80', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(feedCard).toContainText(mustGo);
  await shoot(buyer, 'moving-out-feed');
  await expectAccessible(buyer, 'moving-out-feed');

  // The seller's profile has a "Moving out" shelf.
  await buyer.getByRole('link', { name: desk }).click();
  await expect(buyer.getByText(mustGo).first()).toBeVisible();
  await shoot(buyer, 'moving-out-listing');
  await expectAccessible(buyer, 'moving-out-listing');
  const sellerId = (await apiAs<{ id: number }>(seller, 'GET', '/users/info')).id;
  await buyer.goto(`/u/${sellerId}`);
  await expect(buyer.getByRole('region', { name: 'Lena is moving out' })).toContainText(desk);
  await shoot(buyer, 'moving-out-profile');
  await expectAccessible(buyer, 'moving-out-profile');
  // Real time again for what follows (afterAll resets it too, should this test fail early).
  expect((await buyer.request.post('/e2e/clock', { data: { reset: true } })).ok()).toBe(true);

  await sellerCtx.close();
  await buyerCtx.close();
});

test('hold for fall: a held offer from the listing page, and the held state on My Listings', async ({
  browser,
}) => {
  test.slow();
  const sellerCtx = await browser.newContext({ viewport: PHONE });
  const buyerCtx = await browser.newContext({ viewport: PHONE });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Nadia', 'Brooks');
  await registeredStudent(buyer, 'Omar', 'Lindqvist');
  const fridge = `Mini fridge ${Date.now().toString(36).slice(-5)}`;
  const listingId = await postListing(seller, fridge, 60);
  const hold = uwDay(60);
  const holdText = new Date(`${hold}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

  await buyer.goto(`/single_listing/${listingId}`);
  await buyer.getByRole('button', { name: 'Make an offer' }).first().click();
  const dialog = buyer.getByRole('dialog', { name: 'Make an offer' });
  await dialog.getByLabel('Your offer ($)').fill('50');
  await dialog.getByLabel(/Hold until… \(pick it up in the fall\)/).check();
  await dialog.getByLabel('Hold until', { exact: true }).fill(hold);
  await shoot(buyer, 'hold-offer-dialog');
  await expectAccessible(buyer, 'hold-offer-dialog', { include: ['dialog[open]'] });
  await dialog.getByRole('button', { name: 'Send offer' }).click();
  await expect(dialog).toBeHidden();
  await expect(buyer.getByText(`Held until ${holdText}`).first()).toBeVisible();

  // The seller accepts; their listing shows whom it is held for, and until when.
  const offers = await apiAs<Array<{ id: number; holdUntil: string | null }>>(
    seller,
    'GET',
    `/listings/${listingId}/offers`,
  );
  expect(offers[0]?.holdUntil).toBe(hold);
  await apiAs(seller, 'POST', `/offers/${offers[0]!.id}/accept`);
  await seller.goto('/personalListings');
  const card = seller.getByRole('article').filter({ hasText: fridge });
  await expect(card).toContainText(`Held for Omar until ${holdText}`);
  await shoot(seller, 'hold-my-listings');
  await expectAccessible(seller, 'hold-my-listings');

  // The buyer's Deals page lists what is held for them.
  await buyer.goto('/my-deals');
  const held = buyer.getByRole('region', { name: 'Held for later' });
  await expect(held.getByRole('article').filter({ hasText: fridge })).toContainText(
    `Held for you until ${holdText}`,
  );
  await shoot(buyer, 'hold-deals');
  await expectAccessible(buyer, 'hold-deals');

  await sellerCtx.close();
  await buyerCtx.close();
});
