import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { shoot } from '../support/shots.js';
import { logIn, registeredStudent, seedStudent, type E2EStudent } from '../support/students.js';

const ITEM = 'Desk lamp with USB port';
const viewport = { width: 1280, height: 800 };

async function student(browser: Browser, first: string, last: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await registeredStudent(page, first, last);
  return page;
}

/** The moderator's address is in MODERATOR_EMAILS of the e2e server (support/serve.ts). */
async function moderator(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  const mod: E2EStudent = {
    firstName: 'Mona',
    lastName: 'Reyes',
    email: 'moderator.e2e@msu.edu',
    password: 'spartan-market-2026',
  };
  // A retry on the same server finds the account already there.
  const existing = await page.request.post('/public/login', {
    data: { email: mod.email, password: mod.password },
  });
  if (!existing.ok()) await seedStudent(page, mod);
  await logIn(page, mod);
  await expect(page).toHaveURL(/\/dashboard/);
  return page;
}

const cardLink = (page: Page) => page.getByRole('link', { name: new RegExp(ITEM) });

test('three reports hide a listing, a moderator restores it, and a blocked student cannot message', async ({
  browser,
}) => {
  // Five students log in through the UI on a shared, loaded machine.
  test.setTimeout(300_000);
  const seller = await student(browser, 'Sam', 'Seller');
  await seller.goto('/addlisting');
  await seller.getByLabel('Name').fill(ITEM);
  await seller.getByLabel('Price').fill('12');
  await seller.getByLabel('Category').selectOption('LIFESTYLE');
  await seller.getByLabel('Description').fill('Warm light, USB port for a phone. Pick up at Hubbard Hall.');
  await seller.getByRole('button', { name: 'Add listing' }).click();
  await expect(seller).toHaveURL(/\/all_listings/);
  await cardLink(seller).first().click();
  await expect(seller).toHaveURL(/\/single_listing\/\d+/);
  const listingPath = new URL(seller.url()).pathname;

  // Three different students report it.
  const reporters: Page[] = [];
  for (const [i, name] of ['Ana', 'Ben', 'Cy'].entries()) {
    const page = await student(browser, name, 'Reporter');
    reporters.push(page);
    await page.goto(listingPath);
    await expect(page.getByRole('heading', { name: ITEM })).toBeVisible();
    await page.getByRole('button', { name: 'Report listing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report this listing' });
    await expect(dialog).toBeVisible();
    if (i === 0) {
      // The dialog asks for a reason first.
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(dialog.getByRole('alert')).toHaveText('Choose a reason');
      await expectAccessible(page, 'report-dialog', { include: ['dialog[open]'] });
      await shoot(page, 'report-dialog');
    }
    await dialog.getByLabel('Scam or fraud').check();
    await dialog.getByLabel(/Details/).fill('Asked me to pay by Zelle before meeting.');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/a moderator will look at this/)).toBeVisible();
  }

  // Hidden from browse for everyone once the third report is in.
  const ana = reporters[0] as Page;
  await expect(async () => {
    await ana.goto('/all_listings');
    await expect(ana.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(cardLink(ana)).toHaveCount(0);
  }).toPass({ timeout: 15_000 });

  // The moderator sees it in the queue with every reason, and restores it.
  const mod = await moderator(browser);
  await mod.getByRole('button', { name: 'Settings' }).click();
  await mod.getByRole('menuitem', { name: 'Moderation' }).click();
  await expect(mod).toHaveURL(/\/moderation/);
  const group = mod.getByRole('article', { name: ITEM });
  await expect(group).toBeVisible();
  await expect(group.getByText('Scam or fraud')).toHaveCount(3);
  await expect(group.getByText('Hidden by reports')).toBeVisible();
  await expectAccessible(mod, 'moderation-queue');
  await shoot(mod, 'moderation-queue');
  await group.getByRole('button', { name: 'Restore listing' }).click();
  await expect(mod.getByText('Listing restored')).toBeVisible();
  await mod.getByRole('tab', { name: 'Audit log' }).click();
  await expect(mod.getByRole('table').getByText(/Restored listing #\d+/)).toBeVisible();
  await shoot(mod, 'moderation-audit');

  await expect(async () => {
    await ana.goto('/all_listings');
    await expect(cardLink(ana).first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });

  // Ana talks to the seller, then blocks them.
  await ana.goto(listingPath);
  await ana.getByRole('button', { name: 'Chat with the seller' }).click();
  const input = ana.getByPlaceholder('Type something');
  await input.fill('Hi! Could we meet at the library?');
  await input.press('Enter');
  await expect(ana).toHaveURL(/\/chat\/\d+:\d+$/);
  const roomPath = new URL(ana.url()).pathname;
  await expect(ana.getByRole('log').getByText('Could we meet at the library?')).toBeVisible();

  await ana.getByRole('button', { name: 'Block', exact: true }).click();
  const confirm = ana.getByRole('dialog', { name: 'Block Sam Seller?' });
  await confirm.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(ana.getByText(/You blocked Sam Seller/)).toBeVisible();
  await expect(ana.getByRole('button', { name: 'Unblock' })).toBeVisible();
  await shoot(ana, 'chat-blocked');

  // The blocked seller cannot message; the conversation stays readable.
  await seller.goto(roomPath);
  await expect(seller.getByRole('log').getByText('Could we meet at the library?')).toBeVisible();
  const reply = seller.getByPlaceholder('Type something');
  await reply.fill('Sure, 3pm?');
  await reply.press('Enter');
  await expect(seller.getByText("Not sent: You can't message this student")).toBeVisible();
  await expectAccessible(seller, 'chat-refused', { widths: [1280] });

  // Ana's settings list the block and can undo it.
  await ana.goto('/settings/safety');
  await expect(ana.getByRole('heading', { name: 'Blocked students' })).toBeVisible();
  await expect(ana.getByText('Sam Seller')).toBeVisible();
  await expectAccessible(ana, 'safety-settings');
  await shoot(ana, 'safety-settings');
  await ana.getByRole('button', { name: 'Unblock Sam Seller' }).click();
  await expect(ana.getByText('You have not blocked anyone.')).toBeVisible();
});
