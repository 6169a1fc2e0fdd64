// usability and accessibility, as a keyboard-only student on a flaky network would meet
// it, with axe-core on every screen and on the states the issue names, at 390 and 1280 px.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { gotoBrowserRendered } from '../support/browserRendered.js';
import { expectAccessible } from '../support/axe.js';
import { settled } from '../support/settle.js';
import { shoot } from '../support/shots.js';
import { logIn, registeredStudent, type E2EStudent } from '../support/students.js';

// axe scans take seconds each on a busy machine: these journeys get room for them.
// Each journey is kept to a few minutes of a loaded machine; the budget is for the slowest case.
test.describe.configure({ timeout: 420_000 });

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

interface NewListing {
  name: string;
  price: number;
  category: string;
  description: string;
}

/** Posts a listing through the API as the page's logged-in student; returns its id. */
async function postListing(page: Page, listing: NewListing): Promise<number> {
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

async function topSearch(page: Page, text: string) {
  const box = page.getByRole('searchbox', { name: 'Search listings' });
  await box.fill(text);
  await box.press('Enter');
}

/**
 * Holds a toast on screen: hovering the toast list pauses sonner's timer, so a slow axe scan or
 * screenshot cannot outlive it. Then waits until it has finished sliding in.
 */
async function holdToast(page: Page, toastText: ReturnType<Page['getByText']>) {
  await toastText.hover();
  await settled(page);
}

/** Toast close buttons: at least 44 × 44 px on phones and 24 × 24 px from tablet width up */
async function expectToastCloseTarget(page: Page, phone: boolean) {
  const close = page.getByRole('button', { name: 'Close toast' }).first();
  const box = await close.boundingBox();
  const min = phone ? 44 : 24;
  // Sub-pixel rounding of the toast's transform (23.999998 px for 24): whole pixels are compared.
  expect(Math.round(box?.width ?? 0)).toBeGreaterThanOrEqual(min);
  expect(Math.round(box?.height ?? 0)).toBeGreaterThanOrEqual(min);
}

async function newLoggedInPage(browser: Browser, student: E2EStudent, viewport = DESKTOP) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  await logIn(page, student);
  await expect(page).toHaveURL(/\/dashboard/);
  return { ctx, page };
}

test('public screens pass axe at both widths', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  for (const [path, name, ready] of [
    ['/', 'landing', 'Three steps from listed to sold'],
    ['/signup', 'signup', 'Get on Board!'],
    ['/login', 'login', 'Login'],
    ['/resetPass', 'reset', 'Get My Code'],
    ['/verify', 'verify', 'Check your email'],
    ['/no-such-page', 'not-found', 'This page sold out'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByText(ready, { exact: true }).first()).toBeVisible();
    await expectAccessible(page, name);
  }
  // Item 5: the landing page describes what exists (pay in person), not escrow or ratings.
  await page.goto('/');
  await expect(page.getByText('Campus Market does not handle payments.', { exact: false })).toBeVisible();
  await expect(page.getByText(/release payment|rate the exchange/)).toHaveCount(0);
  // Item 17: one spelling and one name per category.
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Sign Up', exact: true })).toBeVisible();
});

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

  // Item 14: the dashboard's failed rail offers "Try again", which loads it.
  await page.route(/\/listings\/recent/, (route) => route.abort());
  await gotoBrowserRendered(page, '/dashboard');
  await expect(page.getByText('We could not load the latest listings.')).toBeVisible();
  await page.unroute(/\/listings\/recent/);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('link', { name: /Desk lamp/ }).first()).toBeVisible();

  // Item 1: the top-bar search on a category page searches everything…
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

  // Item 9: the category page honours priceMin/priceMax and filters by the chosen bands.
  await page.goto('/cat_listing?categories=BOOKS&priceMin=0&priceMax=15');
  await expect(page.getByRole('link', { name: /Organic chemistry notes/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Calculus textbook/ })).toHaveCount(0);
  await page.getByRole('checkbox', { name: '$100 & up' }).click();
  await expect(page.getByRole('checkbox', { name: '$100 & up' })).toBeChecked();
  await expect(page.getByRole('link', { name: /Road bike/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Organic chemistry notes/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Calculus textbook/ })).toHaveCount(0);
  await expect(page).toHaveURL(/bands=0-15&bands=100%2B/);

  // Item 16: on a phone the open filter panel says how many results and takes you there.
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: /Show filters/ }).click();
  const showResults = page.getByRole('button', { name: 'Show 2 results' });
  await expect(showResults).toBeInViewport();
  // Sticky: still on screen at the top of the panel and with the panel scrolled to its end.
  await page.getByRole('button', { name: /Show filters|Hide filters/ }).scrollIntoViewIfNeeded();
  await expect(showResults).toBeInViewport();
  await page.getByRole('checkbox', { name: '$100 & up' }).scrollIntoViewIfNeeded();
  await expect(showResults).toBeInViewport();
  await shoot(page, 'usability-phone-filters');
  await expectAccessible(page, 'phone-filters-open', { widths: [PHONE.width] });
  await page.getByRole('button', { name: 'Show 2 results' }).click();
  await expect(page.getByRole('button', { name: /Show filters/ })).toHaveAttribute('aria-expanded', 'false');
  await page.setViewportSize(DESKTOP);

  await ctx.close();
});

test('honest errors, keyboard-safe delete, Back, offline screens, focus and sessions', async ({
  browser,
}) => {
  // No service worker here: it would answer the chunk request from its precache, past page.route,
  // and the failed-chunk screen could never be reached.
  const ctx = await browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const ben = await registeredStudent(page, 'Ben', 'Okafor');
  const lampId = await postListing(page, {
    name: 'Clamp lamp for desks',
    price: 12,
    category: 'LIFESTYLE',
    description: 'Clips onto any shelf.',
  });
  // A second listing, so the list (and the focus target after a delete) remains.
  await postListing(page, {
    name: 'Wooden desk organiser',
    price: 8,
    category: 'LIFESTYLE',
    description: 'Five compartments.',
  });

  // Item 2: a load failure shows the error and "Try again", never an empty state.
  await page.route(/\/listings\/self/, (route) => route.abort());
  await gotoBrowserRendered(page, '/personalListings');
  await expect(page.getByText('We could not load your listings right now.')).toBeVisible();
  await expect(page.getByText('You have no listings yet')).toHaveCount(0);
  await shoot(page, 'usability-load-error');
  await expectAccessible(page, 'load-error');
  await page.unroute(/\/listings\/self/);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('link', { name: /Clamp lamp/ })).toBeVisible();
  await page.route(/\/listings(\?|$)/, (route) => route.abort());
  await gotoBrowserRendered(page, '/all_listings');
  await expect(page.getByText('We could not load listings right now.')).toBeVisible();
  await expect(page.getByText(/snapped up/)).toHaveCount(0);
  await page.unroute(/\/listings(\?|$)/);

  // Item 3: delete asks inline; focus on Cancel; Escape cancels and focus returns to the card.
  await page.goto('/personalListings');
  const lampDelete = page.locator(`#delete-${lampId}`);
  await lampDelete.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'This action is permanent. Delete listing?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await shoot(page, 'usability-delete-confirm');
  await expectAccessible(page, 'delete-confirm-open');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(lampDelete).toBeFocused();
  await expect(page.getByRole('link', { name: /Clamp lamp/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: /Clamp lamp/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Your listings' })).toBeFocused();
  await expectAccessible(page, 'personal-listings');

  // Item 11: Back on a page opened from a shared link stays in the app.
  const shared = await ctx.newPage();
  await shared.goto('/all_listings?query=notes');
  await shared.getByRole('button', { name: 'Back' }).click();
  await expect(shared).toHaveURL(/\/dashboard$/);
  await shared.close();

  // Item 7: a screen whose code cannot load keeps the top bar and offers a retry in the page.
  await page.goto('/dashboard');
  await page.route(/\/assets\/AddListingPage-[^/]+\.js/, (route) => route.abort());
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: '+ Sell' }).click();
  await expect(page.getByRole('alert').getByText('This page could not be loaded')).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Listings' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await shoot(page, 'usability-chunk-error');
  await expectAccessible(page, 'chunk-error');
  await page.unroute(/\/assets\/AddListingPage-[^/]+\.js/);

  // Items 8 and 13: Add listing with the server unreachable says so; counters; a cut note.
  await page.goto('/addlisting');
  await expect(page.getByText('0/120')).toBeVisible();
  await page.getByLabel('Name').fill('x'.repeat(130));
  await expect(page.getByText('The pasted name was cut to 120 characters.')).toBeVisible();
  await expect(page.getByText('120/120')).toBeVisible();
  await expect(page.getByText('0/900')).toBeVisible();
  await page.getByLabel('Description').fill('y'.repeat(950));
  await expect(page.getByText('The pasted description was cut to 900 characters.')).toBeVisible();
  await expect(page.getByText('900/900')).toBeVisible();
  await page.getByLabel('Name').fill('Mini fridge');
  await page.getByLabel('Price').fill('60');
  await page.getByLabel('Category').selectOption('LIFESTYLE');
  await page.getByLabel('Description').fill('Cold and quiet.');
  await expectAccessible(page, 'add-listing');
  await page.route(/\/listing$/, (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
  );
  // The toast lasts 3 s: raise it at each width and scan it there.
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.getByRole('button', { name: 'Add listing' }).click();
    const offline = page.getByText('We could not reach the server, so nothing was posted.', { exact: false });
    await expect(offline.first()).toBeVisible();
    await expect(page.getByText(/attach all required fields/)).toHaveCount(0);
    await holdToast(page, offline.first());
    const label = viewport === PHONE ? 'phone' : 'desktop';
    await page.screenshot({ path: `artifacts/screens/usability-offline-toast-${label}.png` });
    await expectAccessible(page, `error-toast-${viewport.width}`, { widths: [viewport.width], toasts: true });
    await expectToastCloseTarget(page, viewport === PHONE);
    // Closed by its button, so the next round raises a fresh one.
    await page.getByRole('button', { name: 'Close toast' }).first().click();
    await expect(offline).toHaveCount(0);
  }
  await page.unroute(/\/listing$/);

  // Item 10: the phone menu closed with Escape gives focus back to the Menu button.
  await page.setViewportSize(PHONE);
  await page.goto('/dashboard');
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  await expect(page.getByRole('link', { name: 'Change your password' })).toBeVisible();
  await expectAccessible(page, 'phone-menu-open', { widths: [PHONE.width] });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: 'Change your password' })).toBeHidden();
  await expect(menu).toBeFocused();
  await page.setViewportSize(DESKTOP);

  // Item 12: a device logged out by a password change elsewhere is told why.
  const other = await newLoggedInPage(browser, ben);
  await page.goto('/changePass');
  await expectAccessible(page, 'change-password');
  await page.getByLabel('Current password').fill(ben.password);
  await page.getByLabel('New password').fill('a-brand-new-passphrase-14');
  await page.getByRole('button', { name: 'Update My Password' }).click();
  await expect(page.getByText('Password updated', { exact: true })).toBeVisible();
  await other.page.goto('/personalListings');
  await expect(other.page).toHaveURL(/\/login/);
  await expect(other.page.getByText('Your password was changed. Log in again.')).toBeVisible();
  await shoot(other.page, 'usability-password-changed');
  await expectAccessible(other.page, 'login-password-changed');
  await other.ctx.close();
  await ctx.close();
});

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
  // Item 6: the messages are an ordered list inside the log, not a list that is itself the log.
  await expect(buyer.getByRole('log').getByRole('list').getByRole('listitem').first()).toBeVisible();
  await expect(buyer.locator('ol[role="log"], ul[role="log"]')).toHaveCount(0);

  // Item 10: the photo panel takes focus; Escape closes it and focus goes back to the paperclip.
  await buyer.getByRole('button', { name: 'Attach a photo' }).click();
  await expect(buyer.getByLabel('Photo (JPG or JPEG)')).toBeFocused();
  await buyer.keyboard.press('Escape');
  await expect(buyer.getByRole('button', { name: 'Attach a photo' })).toBeFocused();

  await buyer.goto(`/single_listing/${suitcaseId}`);
  await buyer.getByRole('button', { name: 'Chat with the seller' }).click();
  await expect(buyer.getByText('Your next message is about')).toBeVisible();
  await buyer.getByPlaceholder('Type something').fill('Is the suitcase still available?');
  await buyer.getByPlaceholder('Type something').press('Enter');
  const log = buyer.getByRole('log');
  await expect(log.getByText('Is the suitcase still available?')).toBeVisible();

  // Item 18: a divider at each change of listing; the header names the latest message's listing.
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

  // Item 19: a sold listing says so and offers no chat to new buyers; the tab title counts unread.
  await seller.goto(`/single_listing/${suitcaseId}`);
  await expectAccessible(seller, 'listing-owner');
  await seller.getByRole('button', { name: 'Mark as Sold' }).click();
  await expect(seller.getByRole('button', { name: 'Mark as Unsold' })).toBeVisible();
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
