import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { readCode } from '../support/mail.js';
import { makePhoto } from '../support/photo.js';
import { shoot } from '../support/shots.js';
import { newStudent, registeredStudent, seedStudent, type E2EStudent } from '../support/students.js';
import { DESKTOP, PHONE } from '../support/viewports.js';

// Sharing that brings students in: a student shares a listing (the share sheet on a phone, "Link
// copied" elsewhere); whoever opens the link without a session sees the item's card — photo, name,
// price, campus, never the seller — and lands on the item after logging in, or after signing up and
// entering the e-mailed code.

/** Posts a listing with a photo through the API as the page's logged-in student; returns its id. */
async function postWithPhoto(page: Page, name: string, price: number): Promise<number> {
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const photo = await makePhoto(`share-${Date.now()}`, 'Desk lamp');
  const res = await page.request.post('/listing', {
    headers,
    multipart: {
      name,
      price: String(price),
      category: 'LIFESTYLE',
      condition: 'LIKE_NEW',
      description: 'Warm light, heavy base. Pick up at Wilson Hall room 214, text me on 517-555-0142.',
      image: { name: 'lamp.jpg', mimeType: 'image/jpeg', buffer: readFileSync(photo) },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const mine = (await (await page.request.get('/listings/self', { headers })).json()) as Array<{
    id: number;
    name: string;
  }>;
  return mine.find((l) => l.name === name)!.id;
}

async function sellerWithListing(browser: Browser, viewport: typeof PHONE, name: string) {
  const context = await browser.newContext({
    viewport,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  const seller = await registeredStudent(page, 'Sharon', 'Sellwood');
  const id = await postWithPhoto(page, name, 40);
  return { context, page, seller, id };
}

/** What the visitor's card must show, and never show. */
async function expectVisitorCard(page: Page, name: string, seller: E2EStudent) {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('$40', { exact: true })).toBeVisible();
  await expect(page.getByText('Like new')).toBeVisible();
  await expect(page.getByText(/On Campus Market at\s*MSU/)).toBeVisible();
  await expect(page.getByRole('img', { name })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'Log in with your university e-mail to message the seller' }),
  ).toBeVisible();
  const text = await page.locator('body').innerText();
  for (const secret of [seller.firstName, seller.lastName, seller.email, 'Wilson Hall', '517-555']) {
    expect(text, secret).not.toContain(secret);
  }
}

for (const viewport of [PHONE, DESKTOP]) {
  const phone = viewport.width < 768;
  test(`a copied link brings a visitor to the item (${viewport.width} px)`, async ({ browser, baseURL }) => {
    const name = `Desk lamp ${viewport.width} ${Date.now().toString(36)}`;
    const { context, page, seller, id } = await sellerWithListing(browser, viewport, name);
    await page.goto(`/single_listing/${id}`);
    // The seller shares their own listing: a labelled button, a full touch target.
    const share = page.getByRole('button', { name: `Share ${name}` });
    await expect(share).toBeVisible();
    const box = (await share.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    await share.click();
    await expect(page.getByText('Link copied')).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${new URL(baseURL!).origin}/single_listing/${id}`);
    if (phone) {
      await expectAccessible(page, 'share-listing-owner');
      await shoot(page, 'share-listing-owner');
    }

    // Someone with no session opens the link in a fresh browser.
    const visitorContext = await browser.newContext({ viewport });
    const visitor = await visitorContext.newPage();
    await visitor.goto(link);
    await expect(visitor).toHaveURL(link);
    await expectVisitorCard(visitor, name, seller);
    if (phone) {
      await expectAccessible(visitor, 'share-visitor-card');
      await shoot(visitor, 'share-visitor-card');
    }

    if (phone) {
      // A new student: sign up, type the e-mailed code, log in — and land on the item.
      const buyer = newStudent('Vic', 'Visitor');
      await visitor.getByRole('link', { name: 'Create an account' }).click();
      await expect(visitor).toHaveURL(/\/signup\?next=/);
      await visitor.getByLabel('First name').fill(buyer.firstName);
      await visitor.getByLabel('Last name').fill(buyer.lastName);
      await visitor.getByLabel('MSU email').fill(buyer.email);
      await visitor.getByLabel('Strong password').fill(buyer.password);
      await visitor.getByRole('button', { name: 'Get on Board!' }).click();
      await expect(visitor).toHaveURL(/\/verify\?next=/);
      await visitor.getByLabel('Verification code').fill(await readCode(buyer.email));
      await visitor.getByRole('button', { name: 'Verify', exact: true }).click();
      await expect(visitor).toHaveURL(/\/login\?next=/);
      await visitor.getByLabel('Password', { exact: true }).fill(buyer.password);
      await visitor.getByRole('button', { name: 'Login', exact: true }).click();
    } else {
      const buyer = newStudent('Vic', 'Visitor');
      await seedStudent(visitor, buyer);
      await visitor.getByRole('link', { name: 'Log in', exact: true }).last().click();
      await expect(visitor).toHaveURL(/\/login\?next=/);
      await visitor.getByLabel('Email').fill(buyer.email);
      await visitor.getByLabel('Password', { exact: true }).fill(buyer.password);
      await visitor.getByRole('button', { name: 'Login', exact: true }).click();
    }
    await expect(visitor).toHaveURL(`${new URL(baseURL!).origin}/single_listing/${id}`);
    await expect(visitor.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(visitor.getByRole('button', { name: 'Chat with the seller' })).toBeVisible();
    await expect(visitor.getByRole('button', { name: `Share ${name}` })).toBeVisible();
    if (phone) await shoot(visitor, 'share-listing-buyer');
    await visitorContext.close();
    await context.close();
  });
}

test('a phone opens the share sheet with the title, text and link', async ({ browser, baseURL }) => {
  const name = `Share sheet lamp ${Date.now().toString(36)}`;
  const { context: sellerContext, id } = await sellerWithListing(browser, PHONE, name);
  await sellerContext.close();
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  // The sheet itself is the phone's: record what the page hands it.
  await context.addInitScript(() => {
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: (data: ShareData) => {
        (window as unknown as { shared: ShareData[] }).shared = [
          ...((window as unknown as { shared?: ShareData[] }).shared ?? []),
          data,
        ];
        return Promise.resolve();
      },
    });
  });
  const page = await context.newPage();
  await registeredStudent(page, 'Phoebe', 'Phone');
  await page.goto(`/single_listing/${id}`);
  await page.getByRole('button', { name: `Share ${name}` }).tap();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData[] }).shared ?? []))
    .toEqual([
      {
        title: name,
        text: `${name}: $40 · Like new on Campus Market`,
        url: `${new URL(baseURL!).origin}/single_listing/${id}`,
      },
    ]);
  await expect(page.getByText('Link copied')).toHaveCount(0);
  await context.close();
});

test('login never sends a student to another site', async ({ page }) => {
  const s = newStudent('Olive', 'Origin');
  await seedStudent(page, s);
  for (const next of ['https://evil.example/single_listing/1', '//evil.example/x', '/\\evil.example']) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await page.getByLabel('Email').fill(s.email);
    await page.getByLabel('Password', { exact: true }).fill(s.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.evaluate(() => window.localStorage.clear());
  }
});

test('a fresh load opens at the top, whatever an earlier load left in the tab', async ({ browser }) => {
  const { context, page, id } = await sellerWithListing(browser, PHONE, `Scroll lamp ${Date.now()}`);
  // What the scroll restorer saved for the first entry of an earlier load in this tab.
  await page.evaluate(() => sessionStorage.setItem('campus:scroll', JSON.stringify({ default: 400 })));
  await page.goto(`/single_listing/${id}`);
  await expect(
    page.getByRole('button', { name: 'Chat with the seller' }).or(page.getByText('Posted by you')),
  ).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(844 + 400);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // Back within the session still returns to where the student was.
  await page.evaluate(() => window.scrollTo(0, 300));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(300);
  // A tap on a link in view (Playwright's click would first scroll the breadcrumb into view).
  await page.evaluate(() =>
    document.querySelector<HTMLAnchorElement>('nav[aria-label="Breadcrumb"] a')?.click(),
  );
  await expect(page).toHaveURL(/\/cat_listing/);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/single_listing/${id}$`));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(300);
  // Left for another document (a typed address), then Back: the same place, not another load's.
  // An unload listener keeps the page out of the back-forward cache, as a phone short of memory
  // would: Back then loads the document again and the app restores the position itself.
  await page.evaluate(() => {
    window.addEventListener('unload', () => undefined);
    window.scrollTo(0, 250);
  });
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(250);
  await page.goto('/dashboard');
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/single_listing/${id}$`));
  expect(
    await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type,
    ),
  ).toBe('back_forward');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(250);
  await context.close();
});
