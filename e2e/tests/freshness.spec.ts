// The move-out season's freshness and price guide (features.md §H) on a phone: a listing nearing
// its end tells its seller, My Listings shows "Expires in N days" and an expired one with Renew,
// one tap lists it again; the add-listing form and the listing page show what such items sold for.
// Time is moved by the test server (support/serve.ts), never waited for.
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { shoot } from '../support/shots.js';
import { newStudent, registeredStudent } from '../support/students.js';

test.describe.configure({ timeout: 300_000 });

const PHONE = { width: 390, height: 844 };
/** A word no other spec uses, so searches and the guide see only this spec's listings. */
const WORD = `wombat${Date.now().toString(36)}`;

async function api(page: Page, method: 'POST' | 'PUT' | 'GET', path: string) {
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const res = await page.request.fetch(path, { method, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${path}: ${res.status()}`).toBe(true);
  return res;
}

/** Posts a listing through the API as the page's student; returns its id. */
async function postListing(page: Page, fields: Record<string, string>): Promise<number> {
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const res = await page.request.post('/listing', { headers, multipart: fields });
  expect(res.ok(), await res.text()).toBe(true);
  const mine = (await (await page.request.get('/listings/self', { headers })).json()) as Array<{
    id: number;
    name: string;
  }>;
  const found = mine.find((l) => l.name === fields.name);
  expect(found).toBeTruthy();
  return found!.id;
}

/** The test server moves the end of a listing's listed period to `inDays` from now. */
async function endsIn(page: Page, id: number, inDays: number) {
  const res = await page.request.post(`/e2e/listings/${id}/expires`, { data: { inDays } });
  expect(res.status()).toBe(204);
}

test('a seller hears a listing is about to expire and renews an expired one in My Listings', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: PHONE });
  const page = await ctx.newPage();
  await registeredStudent(page, 'Maya', 'Chen');
  const fresh = `Mini fridge ${WORD}`;
  const fading = `Bean bag ${WORD}`;
  const gone = `Shoe rack ${WORD}`;
  const base = { category: 'LIFESTYLE', description: 'Moving out, pick up at Wilson Hall.' };
  await postListing(page, { ...base, name: fresh, price: '60' });
  const fadingId = await postListing(page, { ...base, name: fading, price: '25' });
  const goneId = await postListing(page, { ...base, name: gone, price: '15' });
  await endsIn(page, fadingId, 2);
  await endsIn(page, goneId, -1);

  // The notice comes through the job worker: the bell, then the centre with a link to the listing.
  await page.goto('/dashboard');
  const bell = page
    .getByRole('link', { name: /^Notifications/ })
    .filter({ visible: true })
    .first();
  await expect(bell).toHaveAccessibleName(/unread/);
  await bell.click();
  const notice = page
    .getByRole('list', { name: 'Notifications' })
    .getByRole('link')
    .filter({ hasText: fading });
  await expect(notice).toContainText(`“${fading}” leaves the market in 2 days`);
  await shoot(page, 'freshness-notice');
  await notice.click();
  await expect(page).toHaveURL(new RegExp(`/single_listing/${fadingId}$`));
  await expect(page.getByText('Expires in 2 days')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Renew' })).toBeVisible();
  await shoot(page, 'freshness-owner-listing');
  await expectAccessible(page, 'freshness-owner-listing');

  // My Listings: days left for each, amber with Renew near the end, Expired with Renew after it.
  await page.goto('/personalListings');
  const card = (name: string) => page.getByRole('article').filter({ hasText: name });
  await expect(card(fresh)).toContainText(/Expires in (29|30) days/);
  await expect(card(fresh).getByRole('button', { name: 'Renew' })).toHaveCount(0);
  await expect(card(fading)).toContainText('Expires in 2 days');
  await expect(card(gone)).toContainText('Expired');
  await expect(card(gone)).toContainText('no longer in browse or search');
  await shoot(page, 'freshness-my-listings');
  await expectAccessible(page, 'freshness-my-listings');

  // Gone from search until renewed; one tap lists it again.
  const found = async () =>
    (
      (await (await api(page, 'GET', `/listings/search?query=${encodeURIComponent(gone)}`)).json()) as Array<{
        id: number;
      }>
    ).some((l) => l.id === goneId);
  expect(await found()).toBe(false);
  await card(gone).getByRole('button', { name: 'Renew' }).click();
  await expect(page.getByText('Renewed: it is listed again')).toBeVisible();
  await expect(card(gone)).toContainText(/Expires in (29|30) days/);
  await expect(card(gone).getByText('Expired', { exact: true })).toHaveCount(0);
  expect(await found()).toBe(true);
  await shoot(page, 'freshness-renewed');
  await ctx.close();
});

test('the add-listing form and the listing page show what such items sold for on campus', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: PHONE });
  const page = await ctx.newPage();
  await registeredStudent(page, 'Jonas', 'Berg');
  const buyerId = (
    (await (await page.request.post('/e2e/students', { data: newStudent('Tom', 'Reyes') })).json()) as {
      id: number;
    }
  ).id;

  // Three ski jackets sold at hand-offs this year: $40, $55 and $70.
  const name = `Ski jacket ${WORD}`;
  for (const [i, cents] of [4000, 5500, 7000].entries()) {
    const id = await postListing(page, {
      name: `${name} ${['red', 'blue', 'black'][i]}`,
      category: 'CLOTHING',
      condition: 'LIKE_NEW',
      price: String(cents / 100),
      description: 'Warm, waterproof, size M.',
    });
    await api(page, 'PUT', `/listings/sold/${id}`);
    const res = await page.request.post('/e2e/deals', {
      data: { listingId: id, buyerId, priceCents: cents },
    });
    expect(res.status()).toBe(201);
  }

  // The form shows the guide as the student describes the item.
  await page.goto('/addlisting');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Category').selectOption('CLOTHING');
  await page.getByLabel('Condition (optional)').selectOption('LIKE_NEW');
  const hint = page.getByText('Sold on campus for $40–$70');
  await expect(hint).toBeVisible();
  await expect(page.getByText('usually $55')).toBeVisible();
  await expect(page.getByText('3 sales in the last year')).toBeVisible();
  // Another condition has no sales yet: the guide goes away.
  await page.getByLabel('Condition (optional)').selectOption('FAIR');
  await expect(hint).toHaveCount(0);
  await page.getByLabel('Condition (optional)').selectOption('LIKE_NEW');
  await expect(hint).toBeVisible();
  await page.getByLabel('Price').fill('50');
  await shoot(page, 'price-guide-form');
  // The full-page shot has the phone's tab bar over the guide: one of the screen as the student sees it.
  await hint.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'artifacts/screens/price-guide-form-hint-phone-viewport.png' });
  await expectAccessible(page, 'price-guide-form');

  // Posted, its page shows the same guide.
  await page.getByLabel('Description').fill('Barely worn, one season.');
  await page.getByRole('button', { name: 'Add listing' }).click();
  await expect(page).toHaveURL(/\/all_listings/);
  await page.goto('/personalListings');
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByText('Sold on campus for $40–$70')).toBeVisible();
  await shoot(page, 'price-guide-listing');
  await expectAccessible(page, 'price-guide-listing');
  await ctx.close();
});
