// Every campus in one deployment (features.md §E), as students meet it: the test server serves
// MSU (the default) and the University of Washington (support/serve.ts). A student finds their
// campus on the landing page and signs up with its address; an address no campus lists is refused
// in the form; and a UW student's marketplace — the header, browse and search — holds nothing of
// MSU's, and the other way round.
import { CAMPUS_MESSAGES, MESSAGES } from '@campus/contract';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { APP_ENTRY, holdRequests } from '../support/hold.js';
import { postListing } from '../support/listings.js';
import { readCode } from '../support/mail.js';
import { shoot } from '../support/shots.js';
import { CAMPUS_DOMAINS, logIn, newStudent, registeredStudent } from '../support/students.js';
import { DESKTOP, PHONE } from '../support/viewports.js';

test.describe.configure({ timeout: 420_000 });

const UW = 'University of Washington';

async function searchFor(page: Page, text: string) {
  const box = page.getByRole('searchbox', { name: 'Search listings' }).first();
  await box.fill(text);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/all_listings\?query=/);
}

test('find your campus on the landing page, sign up with its address, and see it after login', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto('/');
  const picker = page.getByRole('combobox', { name: 'Find your campus' });
  await expect(picker).toBeVisible();
  await shoot(page, 'campus-landing');

  // Search by a piece of the name, with the keyboard only.
  await picker.focus();
  await page.keyboard.type('wash');
  const list = page.getByRole('listbox', { name: 'Campuses' });
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option', { name: new RegExp(UW) })).toContainText('@uw.edu');
  await page.keyboard.press('ArrowDown');
  await expect(picker).toHaveAttribute('aria-activedescendant', /.+/);
  await expect(list.getByRole('option', { name: new RegExp(UW) })).toHaveAttribute('aria-selected', 'true');
  await expectAccessible(page, 'campus-picker-open');
  await page.keyboard.press('Enter');
  await expect(picker).toHaveValue(UW);
  await expect(list).toBeHidden();
  await expect(page.getByText(`${UW} is on Campus Market`)).toBeVisible();
  await expect(page.getByText('Use your @uw.edu address to sign up.')).toBeVisible();
  await expect(page.getByText(`Only for verified ${UW} students`)).toBeVisible();
  await expectAccessible(page, 'campus-picker-chosen');
  await shoot(page, 'campus-landing-chosen');

  // Search by domain; Escape closes the list, then clears the field and the choice.
  await picker.fill('msu.edu');
  await expect(list.getByRole('option')).toHaveText([/MSU/]);
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(picker).toHaveValue('');
  await expect(page.getByText('is on Campus Market')).toHaveCount(0);
  // A campus that has not joined says so.
  await picker.fill('harvard');
  await expect(page.getByText('No campus matches “harvard”.')).toBeVisible();

  // Choose by touch/click, go on to the sign-up form for that campus.
  await picker.fill('uw');
  await list.getByRole('option', { name: new RegExp(UW) }).click();
  await page.getByRole('link', { name: 'Continue to sign up' }).click();
  await expect(page).toHaveURL(/\/signup\?campus=uw$/);
  await expect(page.getByRole('combobox', { name: 'Your campus' })).toHaveValue(UW);
  const email = page.getByLabel(`${UW} email`);
  await expect(email).toBeVisible();
  await expect(
    page.getByText("Use your @uw.edu address. We'll e-mail you a code to verify it."),
  ).toBeVisible();
  await expectAccessible(page, 'campus-signup');
  await shoot(page, 'campus-signup');

  // An address of a campus not on Campus Market: the server's reason, in the form.
  const s = newStudent('Kai', 'Nakamura', CAMPUS_DOMAINS.uw);
  await page.getByLabel('First name').fill(s.firstName);
  await page.getByLabel('Last name').fill(s.lastName);
  await email.fill('kai.nakamura@ox.ac.uk');
  await page.getByLabel('Strong password').fill(s.password);
  await page.getByRole('button', { name: 'Get on Board!' }).click();
  const refusal = page.locator('form').getByRole('alert');
  // Every open campus's domains, Lakeshore State's too (university sign-in, support/serve.ts).
  await expect(refusal).toHaveText(
    CAMPUS_MESSAGES.campusNotOnMarket('ox.ac.uk', ['lakeshore.edu', 'msu.edu', 'uw.edu']),
  );
  await expect(refusal).toBeFocused();
  await expect(page).toHaveURL(/\/signup/);
  await shoot(page, 'campus-signup-refused');

  // Typing another campus's address makes the form speak of that campus.
  await email.fill(`someone@${CAMPUS_DOMAINS.msu}`);
  await email.blur();
  await expect(page.getByRole('combobox', { name: 'Your campus' })).toHaveValue('MSU');
  await expect(page.getByLabel('MSU email')).toBeVisible();

  // The right address signs up; after login the header names the student's campus.
  await page.getByLabel('MSU email').fill(s.email);
  await expect(page.getByRole('combobox', { name: 'Your campus' })).toHaveValue('MSU');
  await page.getByLabel('MSU email').blur();
  await expect(page.getByRole('combobox', { name: 'Your campus' })).toHaveValue(UW);
  await page.getByRole('button', { name: 'Get on Board!' }).click();
  await expect(page).toHaveURL(/\/verify/);
  await page.getByLabel('Verification code').fill(await readCode(s.email));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await logIn(page, s);
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByRole('banner')).toContainText(UW);
});

test("a UW student's marketplace holds nothing of MSU's, and the other way round", async ({ browser }) => {
  const msuCtx = await browser.newContext({ viewport: DESKTOP });
  const uwCtx = await browser.newContext({ viewport: DESKTOP });
  const msu = await msuCtx.newPage();
  const uw = await uwCtx.newPage();
  const tag = Date.now().toString(36);
  const msuItem = `Spartan espresso machine ${tag}`;
  const uwItem = `Husky espresso machine ${tag}`;

  await registeredStudent(msu, 'Maya', 'Okafor');
  const msuId = await postListing(msu, {
    name: msuItem,
    price: 80,
    category: 'LIFESTYLE',
    description: 'Makes two cups at once, descaled last week. Pick up by the library.',
  });
  await registeredStudent(uw, 'Lena', 'Park', CAMPUS_DOMAINS.uw);
  await postListing(uw, {
    name: uwItem,
    price: 70,
    category: 'LIFESTYLE',
    description: 'Makes two cups at once, descaled last week. Pick up by the HUB.',
  });

  // The header names each student's own campus.
  await expect(uw.getByRole('banner')).toContainText(UW);
  await shoot(uw, 'campus-uw-dashboard');
  await expectAccessible(uw, 'campus-uw-dashboard');
  await expect(msu.getByRole('banner')).toContainText('MSU');
  await expect(msu.getByRole('banner')).not.toContainText(UW);

  // Browse: each sees their campus's listing and not the other's.
  for (const [page, own, other] of [
    [uw, uwItem, msuItem],
    [msu, msuItem, uwItem],
  ] as const) {
    await page.goto('/all_listings');
    await expect(page.getByRole('link', { name: new RegExp(own) }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: new RegExp(other) })).toHaveCount(0);
  }
  await shoot(uw, 'campus-uw-browse');

  // Search: the words both listings share find only the student's own campus's.
  await searchFor(uw, `espresso machine ${tag}`);
  await expect(uw.getByRole('link', { name: new RegExp(uwItem) }).first()).toBeVisible();
  await expect(uw.getByRole('link', { name: new RegExp(msuItem) })).toHaveCount(0);
  await searchFor(uw, `Spartan espresso ${tag}`);
  await expect(uw.getByRole('link', { name: new RegExp(msuItem) })).toHaveCount(0);

  // MSU's listing by its address: not found, as an unknown listing is.
  await uw.goto(`/single_listing/${msuId}`);
  await expect(uw.getByRole('heading', { level: 1 })).toHaveText(MESSAGES.listingNotFoundTitle);
  await expect(uw.getByText(msuItem)).toHaveCount(0);

  await msuCtx.close();
  await uwCtx.close();
});

test('a tap on the campus picker before the page is ready opens its list once it is', async ({ page }) => {
  await page.setViewportSize(PHONE);
  // The landing page arrives rendered by the server; its app script is held back, as on a slow network.
  const releaseScripts = await holdRequests(page, APP_ENTRY);
  await page.goto('/', { waitUntil: 'commit' });
  const picker = page.getByRole('combobox', { name: 'Find your campus' });
  await picker.click();
  await expect(picker).toBeFocused();
  releaseScripts();
  await expect(
    page.getByRole('listbox', { name: 'Campuses' }).getByRole('option', { name: /MSU/ }),
  ).toBeVisible();
});
