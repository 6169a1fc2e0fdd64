// Usability and accessibility, as a keyboard-only student on a flaky network would meet it, with
// axe-core on every screen and on the states that matter, at 390 and 1280 px.
// This file: search, filters and the dashboard.
import { expect, test, type Page } from '@playwright/test';
import { gotoBrowserRendered } from '../support/browserRendered.js';
import { expectAccessible } from '../support/axe.js';
import { postListing } from '../support/listings.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';
import { DESKTOP, PHONE } from '../support/viewports.js';

// Axe scans take seconds each on a busy machine: these journeys get room for them.
// Each journey is kept to a few minutes of a loaded machine; the budget is for the slowest case.
test.describe.configure({ timeout: 420_000 });

async function topSearch(page: Page, text: string) {
  const box = page.getByRole('searchbox', { name: 'Search listings' });
  await box.fill(text);
  await box.press('Enter');
}

test('top-bar search, filters, category price bands and the dashboard retry', async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  await registeredStudent(page, 'Ana', 'Rivera');
  await postListing(page, {
    name: 'Desk lamp with USB port',
    price: 18,
    category: 'LIFESTYLE',
    description: 'Warm light, three brightness levels.',
  });
  await postListing(page, {
    name: 'Organic chemistry notes',
    price: 9,
    category: 'BOOKS',
    description: 'Full semester of typed notes.',
  });
  await postListing(page, {
    name: 'Road bike 54 cm',
    price: 240,
    category: 'BOOKS',
    description: 'Listed in books by mistake, but a bike.',
  });
  await postListing(page, {
    name: 'Calculus textbook',
    price: 45,
    category: 'BOOKS',
    description: 'Stewart, 8th edition.',
  });

  // Logged in: /login goes straight to the dashboard; axe on the dashboard.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('link', { name: /Desk lamp/ }).first()).toBeVisible();
  await expectAccessible(page, 'dashboard');

  // The dashboard's failed rail offers "Try again", which loads it.
  await page.route(/\/listings\/recent/, (route) => route.abort());
  await gotoBrowserRendered(page, '/dashboard');
  await expect(page.getByText('We could not load the latest listings.')).toBeVisible();
  await page.unroute(/\/listings\/recent/);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('link', { name: /Desk lamp/ }).first()).toBeVisible();

  // The top-bar search on a category page searches everything…
  await page.goto('/cat_listing?categories=BOOKS');
  await expect(page.getByRole('heading', { level: 1, name: 'Books' })).toBeVisible();
  await expectAccessible(page, 'category');
  await topSearch(page, 'lamp');
  await expect(page).toHaveURL(/\/all_listings\?query=lamp$/);
  await expect(page.getByRole('link', { name: /Desk lamp/ }).first()).toBeVisible();
  await expectAccessible(page, 'search-results');
  // …filters apply only when chosen on the results; an emptied filtered search says so.
  // Filters live in the URL, so the box re-renders checked a tick after the click: wait for it.
  await page.getByRole('checkbox', { name: 'Books' }).click();
  await expect(page.getByRole('checkbox', { name: 'Books' })).toBeChecked();
  await expect(page.getByRole('heading', { name: 'Nothing matches these filters' })).toBeVisible();
  await expect(page.getByText('All the good stuff was just snapped up')).toHaveCount(0);
  await shoot(page, 'usability-filtered-empty');
  await expectAccessible(page, 'filtered-empty');
  await page.getByRole('button', { name: 'Search all categories' }).click();
  await expect(page.getByRole('link', { name: /Desk lamp/ }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/all_listings\?query=lamp$/);

  // The category page honours priceMin/priceMax and filters by the chosen bands.
  await page.goto('/cat_listing?categories=BOOKS&priceMin=0&priceMax=15');
  await expect(page.getByRole('link', { name: /Organic chemistry notes/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Calculus textbook/ })).toHaveCount(0);
  await page.getByRole('checkbox', { name: '$100 & up' }).click();
  await expect(page.getByRole('checkbox', { name: '$100 & up' })).toBeChecked();
  await expect(page.getByRole('link', { name: /Road bike/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Organic chemistry notes/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Calculus textbook/ })).toHaveCount(0);
  await expect(page).toHaveURL(/bands=0-15&bands=100%2B/);

  // On a phone the open filter panel says how many results and takes you there. Other journeys on
  // this test server may have posted books in these bands too: the count is what the page lists.
  const listed = await page.locator('[id^="listing-"][id$="-title"]').count();
  expect(listed).toBeGreaterThanOrEqual(2);
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: /Show filters/ }).click();
  const showResults = page.getByRole('button', { name: `Show ${listed} results` });
  await expect(showResults).toBeInViewport();
  // Sticky: still on screen at the top of the panel and with the panel scrolled to its end.
  await page.getByRole('button', { name: /Show filters|Hide filters/ }).scrollIntoViewIfNeeded();
  await expect(showResults).toBeInViewport();
  await page.getByRole('checkbox', { name: '$100 & up' }).scrollIntoViewIfNeeded();
  await expect(showResults).toBeInViewport();
  await shoot(page, 'usability-phone-filters');
  await expectAccessible(page, 'phone-filters-open', { widths: [PHONE.width] });
  await showResults.click();
  await expect(page.getByRole('button', { name: /Show filters/ })).toHaveAttribute('aria-expanded', 'false');
  await page.setViewportSize(DESKTOP);

  await ctx.close();
});
