import { expect, type Page } from '@playwright/test';

/** Posts a Lifestyle listing through the form, as its seller, and waits for the listings page. */
export async function postLifestyleListing(page: Page, name: string, price: string): Promise<void> {
  await page.goto('/addlisting');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Price').fill(price);
  await page.getByLabel('Category').selectOption('LIFESTYLE');
  await page
    .getByLabel('Description')
    .fill('Warm light, heavy base, works perfectly. Pick up at Wilson Hall.');
  await page.getByRole('button', { name: 'Add listing' }).click();
  await expect(page).toHaveURL(/\/all_listings/);
}

/** Opens the listing named `name` from the browse page and starts a chat with its seller. */
export async function chatAboutListing(page: Page, name: string | RegExp): Promise<void> {
  await page.goto('/all_listings');
  await page
    .getByRole('link', { name: typeof name === 'string' ? new RegExp(name) : name })
    .first()
    .click();
  await page.getByRole('button', { name: 'Chat with the seller' }).click();
}

export interface NewListing {
  name: string;
  price: number;
  category: string;
  description: string;
}

/** Posts a listing through the API as the page's logged-in student; returns its id. */
export async function postListing(page: Page, listing: NewListing): Promise<number> {
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const res = await page.request.post('/listing', {
    headers,
    multipart: { ...listing, price: String(listing.price) },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const mine = await page.request.get('/listings/self', { headers });
  const items = (await mine.json()) as Array<{ id: number; name: string }>;
  const found = items.find((l) => l.name === listing.name);
  expect(found).toBeTruthy();
  return found!.id;
}
