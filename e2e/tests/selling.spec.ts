// Selling and finding (features.md §B) in the browser: edit a price, three photos reordered before saving and
// shown in that order, the heart and the Saved page, sort by price, a book found by its course
// code, wanted posts with "I have this" — axe on every new screen, screenshots at 390 and 1280 px.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { expectAccessible } from '../support/axe.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';

// Sign-ups, uploads and axe scans at two widths take a while on a loaded machine.
test.describe.configure({ timeout: 300_000 });

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** A word no other spec uses, so searches return only this spec's listings. */
const WORD = `quokka${Date.now().toString(36)}`;

/** A JPEG of the given shape: the shape tells the photos apart after the server re-encodes them. */
async function shapedPhoto(name: string, width: number, height: number, colour: string): Promise<string> {
  const dir = path.resolve('artifacts/fixtures');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.jpg`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="${colour}"/>
    <text x="50%" y="55%" font-size="120" font-family="sans-serif" fill="#fff" text-anchor="middle">${name}</text></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toFile(file);
  return file;
}

async function newPage(browser: Browser, first: string, last: string, viewport = DESKTOP) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  const student = await registeredStudent(page, first, last);
  return { ctx, page, student };
}

/** Posts a listing through the API as the page's student (setting up what the journey needs). */
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

/** Width / height of a gallery photo as the browser decoded it. */
async function aspect(page: Page, alt: string): Promise<number> {
  return page.getByAltText(alt, { exact: true }).evaluate(async (img: HTMLImageElement) => {
    if (!img.complete || img.naturalWidth === 0) {
      img.loading = 'eager';
      await img.decode();
    }
    return img.naturalWidth / img.naturalHeight;
  });
}

test('a seller adds three photos, reorders them, and edits the price', async ({ browser }) => {
  const { page } = await newPage(browser, 'Ava', 'Lindqvist');
  const name = `Walnut desk lamp ${Date.now().toString(36)}`;

  await page.goto('/addlisting');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Price').fill('30');
  // Fields only where they apply: no condition for services, course and ISBN only for books.
  await page.getByLabel('Category').selectOption('SERVICES');
  await expect(page.getByLabel('Condition (optional)')).toHaveCount(0);
  await page.getByLabel('Category').selectOption('BOOKS');
  await expect(page.getByLabel('Course code (optional)')).toBeVisible();
  await expect(page.getByLabel('ISBN (optional)')).toBeVisible();
  await page.getByLabel('Category').selectOption('LIFESTYLE');
  await expect(page.getByLabel('Course code (optional)')).toHaveCount(0);
  await page.getByLabel('Condition (optional)').selectOption('GOOD');
  await page.getByLabel('Description').fill('Warm light, solid walnut base, bulb included.');

  await page
    .locator('input[type=file]')
    .setInputFiles([
      await shapedPhoto('wide', 1200, 600, '#18453b'),
      await shapedPhoto('square', 900, 900, '#7a3b18'),
      await shapedPhoto('tall', 600, 1200, '#1d3f8a'),
    ]);
  const photos = page.getByRole('list', { name: 'Chosen photos' });
  await expect(photos.getByRole('img')).toHaveCount(3);
  await expect(photos.getByRole('img').first()).toHaveAccessibleName('Photo 1 of 3: wide.jpg (cover)');

  // Reorder before saving: a button (as on a phone), then drag and drop (as on a desktop).
  await page.getByRole('button', { name: 'Move photo 3 earlier' }).click();
  await expect(photos.getByRole('img').nth(1)).toHaveAccessibleName('Photo 2 of 3: tall.jpg');
  await photos.getByRole('listitem').nth(0).dragTo(photos.getByRole('listitem').nth(2));
  await expect
    .poll(async () => photos.getByRole('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt'))))
    .toEqual(['Photo 1 of 3: tall.jpg (cover)', 'Photo 2 of 3: square.jpg', 'Photo 3 of 3: wide.jpg']);
  await expectAccessible(page, 'add-listing-photos');
  await shoot(page, 'selling-add-photos');

  await page.getByRole('button', { name: 'Add listing' }).click();
  // Three photos are shrunk in the browser and re-encoded (with AVIF/WebP copies) on the server:
  // on a loaded machine this takes well over the default 10 s.
  await expect(page).toHaveURL(/\/all_listings/, { timeout: 60_000 });

  // Edit from "My listings": lower the price.
  await page.goto('/personalListings');
  const card = page.getByRole('listitem').filter({ hasText: name });
  await expect(card.getByText('Good')).toBeVisible();
  await card.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit listing' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue(name);
  await expect(page.getByLabel('Condition (optional)')).toHaveValue('GOOD');
  await expect(photos.getByRole('img')).toHaveCount(3);
  await page.getByLabel('Price').fill('24');
  await expectAccessible(page, 'edit-listing');
  await shoot(page, 'selling-edit');
  await page.getByRole('button', { name: 'Save changes' }).click();

  // The listing page shows the new price and the photos in the chosen order.
  await expect(page).toHaveURL(/\/single_listing\/\d+/, { timeout: 60_000 });
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('$24', { exact: true })).toBeVisible();
  const gallery = page.getByRole('region', { name: `Photos of ${name}` });
  await expect(gallery).toBeVisible();
  await expect.poll(() => aspect(page, `${name}, photo 1 of 3`)).toBeLessThan(0.75);
  await expect.poll(() => aspect(page, `${name}, photo 2 of 3`)).toBeCloseTo(1, 1);
  await expect.poll(() => aspect(page, `${name}, photo 3 of 3`)).toBeGreaterThan(1.5);
  // Arrow keys move through the gallery on a desktop.
  await gallery.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('2 / 3')).toBeVisible();
  await page.keyboard.press('End');
  await expect(page.getByText('3 / 3')).toBeVisible();
  await expectAccessible(page, 'listing-gallery-owner');
  await shoot(page, 'selling-listing-owner');

  // Edit from the listing page opens the same form.
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edit listing' })).toBeVisible();
  await expect(page.getByLabel('Price')).toHaveValue('24');
});

test('a buyer sorts by price, saves a listing, finds a course book and posts a wanted item', async ({
  browser,
}) => {
  const seller = await newPage(browser, 'Noah', 'Brennan');
  for (const [size, price] of [
    ['large', '40'],
    ['small', '12'],
    ['medium', '25'],
  ] as const) {
    await postListing(seller.page, {
      name: `${WORD} lamp ${size}`,
      category: 'LIFESTYLE',
      price,
      description: `A ${size} reading lamp.`,
      condition: 'LIKE_NEW',
    });
  }
  const book = 'Data Structures and Algorithms textbook';
  await postListing(seller.page, {
    name: book,
    category: 'BOOKS',
    price: '35',
    description: 'Used for one semester, no highlighting.',
    courseCode: 'cse 232',
    isbn: '978-0-13-468599-1',
  });

  const buyer = await newPage(browser, 'Mia', 'Okonkwo');
  const page = buyer.page;

  // Sort by price.
  await page.goto(`/all_listings?query=${WORD}`);
  const results = page.getByRole('list', { name: `Search results for ${WORD}` });
  await expect(results.getByRole('heading')).toHaveCount(3);
  await page.getByLabel('Sort by').selectOption('price_asc');
  await expect(page).toHaveURL(/sort=price_asc/);
  await expect
    .poll(() => results.getByRole('heading').allTextContents())
    .toEqual([`${WORD} lamp small`, `${WORD} lamp medium`, `${WORD} lamp large`]);
  await page.getByLabel('Sort by').selectOption('price_desc');
  await expect
    .poll(() => results.getByRole('heading').allTextContents())
    .toEqual([`${WORD} lamp large`, `${WORD} lamp medium`, `${WORD} lamp small`]);
  await expect(results.getByText('Like new').first()).toBeVisible();
  // The category page sorts too.
  await page.goto('/cat_listing?categories=LIFESTYLE');
  await page.getByLabel('Sort by').selectOption('price_asc');
  await expect(page).toHaveURL(/sort=price_asc/);
  await expect
    .poll(async () =>
      (
        await page
          .getByRole('list', { name: /listings/ })
          .getByRole('heading')
          .allTextContents()
      ).filter((t) => t.startsWith(WORD)),
    )
    .toEqual([`${WORD} lamp small`, `${WORD} lamp medium`, `${WORD} lamp large`]);
  await page.goto(`/all_listings?query=${WORD}&sort=price_desc`);
  await expectAccessible(page, 'search-sorted');
  await shoot(page, 'selling-search-sorted');

  // Save one with the heart and find it on the Saved page.
  const heart = page.getByRole('button', { name: `Save ${WORD} lamp medium` });
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await heart.click();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Saved', exact: true })
    .first()
    .click();
  await expect(page).toHaveURL(/\/saved$/);
  await expect(page.getByRole('link', { name: `${WORD} lamp medium` })).toBeVisible();
  await expect(page.getByRole('link', { name: `${WORD} lamp small` })).toHaveCount(0);
  await expectAccessible(page, 'saved');
  await shoot(page, 'selling-saved');

  // On a phone, Saved is in the top bar and Wanted in its menu.
  await page.setViewportSize(PHONE);
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: 'Saved', exact: true })).toBeVisible();
  await banner.getByRole('button', { name: 'Menu' }).click();
  await expect(banner.getByRole('link', { name: 'Wanted', exact: true })).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Saved searches', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.setViewportSize(DESKTOP);

  // The seller sees how many saved it.
  await seller.page.goto(`/all_listings?query=${WORD}`);
  await seller.page.getByRole('link', { name: `${WORD} lamp medium` }).click();
  await expect(seller.page.getByText('1 student saved it')).toBeVisible();

  // A search for the course code finds the book first; its course page lists it.
  await page.getByRole('searchbox', { name: 'Search listings' }).fill('CSE 232');
  await page.getByRole('searchbox', { name: 'Search listings' }).press('Enter');
  await expect(
    page
      .getByRole('list', { name: /Search results/ })
      .getByRole('heading')
      .first(),
  ).toHaveText(book);
  await page.getByRole('link', { name: book }).first().click();
  await expect(page.getByText('9780134685991')).toBeVisible();
  await page.getByRole('link', { name: /CSE232/ }).click();
  await expect(page).toHaveURL(/\/course\/CSE232$/);
  await expect(page.getByRole('heading', { name: 'Books for CSE232', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: book })).toBeVisible();
  await expectAccessible(page, 'course');
  await shoot(page, 'selling-course');

  // Post a wanted item.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Wanted', exact: true })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Wanted', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Post a wanted item' }).first().click();
  const form = page.getByRole('form', { name: 'Post a wanted item' });
  await form.getByLabel('Looking for').fill(`Mini fridge ${WORD}`);
  await form.getByLabel('Category').selectOption('LIFESTYLE');
  await form.getByLabel("Most you'd pay (optional)").fill('60');
  await expectAccessible(page, 'wanted-form');
  await page.getByRole('button', { name: 'Post wanted item' }).click();
  const mine = page.getByRole('list', { name: 'Your wanted posts' });
  await expect(mine.getByRole('heading', { name: `Mini fridge ${WORD}` })).toBeVisible();
  await expect(mine.getByText('Up to $60')).toBeVisible();
  await expectAccessible(page, 'wanted-mine');
  await shoot(page, 'selling-wanted-mine');

  // The seller has one: "I have this" opens the add form filled in.
  await seller.page.goto('/wanted_board');
  const post = seller.page.getByRole('article').filter({ hasText: `Mini fridge ${WORD}` });
  await expect(post).toBeVisible();
  await expectAccessible(seller.page, 'wanted-everyone');
  await shoot(seller.page, 'selling-wanted');
  await post.getByRole('link', { name: 'I have this' }).click();
  await expect(seller.page).toHaveURL(/\/addlisting\?/);
  await expect(seller.page.getByLabel('Name')).toHaveValue(`Mini fridge ${WORD}`);
  await expect(seller.page.getByLabel('Category')).toHaveValue('LIFESTYLE');

  // Once listed, the seller's page says a student is looking for it.
  const fridge = await postListing(seller.page, {
    name: `Mini fridge ${WORD}`,
    category: 'LIFESTYLE',
    price: '55',
    description: 'Compact, quiet, fits under a desk.',
  });
  await expect(async () => {
    await seller.page.goto(`/single_listing/${fridge}`);
    await expect(seller.page.getByText('1 student is looking for this')).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await shoot(seller.page, 'selling-looking-for');
});
