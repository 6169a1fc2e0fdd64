// University sign-in (features.md §G) on a phone: Lakeshore State (support/serve.ts, served on
// 127.0.0.1) signs its students in through a real OpenID Connect provider — its own login and
// consent pages — and the student lands on the dashboard with a session like any login gives.
import { SSO_MESSAGES } from '@campus/contract';
import { expect, test, type Page } from '@playwright/test';
import { APP_PORT, BASE_URL } from '../support/ports.js';
import { shoot } from '../support/shots.js';
import { PHONE } from '../support/viewports.js';

const SITE = `http://127.0.0.1:${APP_PORT}`;
const BUTTON = 'Continue with Lakeshore State account';

/** At the university: its login page (any login, any password), then its consent page. */
async function signInAtUniversity(page: Page, login: string, shots?: string): Promise<void> {
  const loginField = page.getByPlaceholder('Enter any login');
  await expect(loginField).toBeVisible();
  expect(new URL(page.url()).origin).not.toBe(SITE);
  if (shots) await page.screenshot({ path: `artifacts/screens/${shots}-provider-login-phone.png` });
  await loginField.fill(login);
  await page.getByPlaceholder('and password').fill('the-university-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const consent = page.getByRole('button', { name: 'Continue' });
  await expect(consent).toBeVisible();
  await consent.click();
}

async function me(page: Page): Promise<{ email: string; firstName: string; lastName: string }> {
  return page.evaluate(async () => {
    const res = await fetch('/users/info', {
      headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
    });
    return (await res.json()) as { email: string; firstName: string; lastName: string };
  });
}

test.beforeAll(async ({ request }) => {
  // The university's ID token is checked against the server's clock: a journey before this one on
  // the same server may have moved it forward (/e2e/clock).
  await request.post(`${SITE}/e2e/clock`, { data: { reset: true } });
});

test('a student signs in with their university account, and a graduate is told why not', async ({
  page,
  browser,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto(`${SITE}/login`);
  const button = page.getByRole('link', { name: BUTTON });
  await expect(button).toBeVisible();
  // The e-mail form stays beside it on a campus that is not ssoOnly.
  await expect(page.getByLabel('Email')).toBeVisible();
  await shoot(page, 'university-sign-in-login');

  await button.click();
  await signInAtUniversity(page, 'riley', 'university-sign-in');
  await expect(page).toHaveURL(`${SITE}/dashboard`);
  // The code has left the address bar; the session is the one login gives.
  expect(page.url()).not.toContain('code=');
  await expect(page.getByRole('heading', { name: "Today's Latest Products" })).toBeVisible();
  expect(await me(page)).toMatchObject({
    email: 'riley@lakeshore.edu',
    firstName: 'Riley',
    lastName: 'Laker',
  });
  await shoot(page, 'university-sign-in-dashboard');

  // A reload keeps the session, as after an e-mail login.
  await page.reload();
  await expect(page).toHaveURL(`${SITE}/dashboard`);

  // The sign-up page offers the same button.
  const fresh = await browser.newContext({ viewport: PHONE });
  const other = await fresh.newPage();
  await other.goto(`${SITE}/signup`);
  await expect(other.getByRole('link', { name: BUTTON })).toBeVisible();

  // A graduate (alum affiliation) gets the university's page back with the reason, not a session.
  await other.getByRole('link', { name: BUTTON }).click();
  await signInAtUniversity(other, 'alumna');
  await expect(other.getByRole('heading', { name: 'University sign-in did not work' })).toBeVisible();
  await expect(other.getByText('did not confirm that you are a current student')).toBeVisible();
  await other.screenshot({ path: 'artifacts/screens/university-sign-in-refused-phone.png', fullPage: true });
  await other.getByRole('link', { name: 'Back to log in' }).click();
  await expect(other).toHaveURL(`${SITE}/login`);
  expect(await other.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await fresh.close();
});

test("the sign-up page's campus picker says which campuses offer university sign-in", async ({ page }) => {
  await page.setViewportSize(PHONE);
  // The main address serves MSU, which has no university sign-in: the e-mail form alone.
  await page.goto(`${BASE_URL}/signup`);
  await expect(page.getByLabel('MSU email')).toBeVisible();
  await expect(page.getByRole('link', { name: BUTTON })).toHaveCount(0);

  const picker = page.getByRole('combobox', { name: 'Your campus' });
  await picker.click();
  const list = page.getByRole('listbox', { name: 'Campuses' });
  const lakeshore = list.getByRole('option', { name: /Lakeshore State/ });
  await expect(lakeshore).toContainText(SSO_MESSAGES.pickerOffered);
  await expect(list.getByRole('option', { name: /MSU/ })).not.toContainText('University sign-in');
  await shoot(page, 'university-sign-in-picker');
  await lakeshore.click();

  // Chosen, its button comes first; Lakeshore State is not ssoOnly, so the e-mail form stays.
  await expect(page.getByRole('link', { name: BUTTON })).toHaveAttribute('href', '/auth/sso/lakeshore/start');
  await expect(page.getByLabel('Lakeshore State email')).toBeVisible();
  await shoot(page, 'university-sign-in-signup-chosen');

  // The landing page's card says the same: either the address or the university account.
  await page.goto(`${BASE_URL}/`);
  const find = page.getByRole('combobox', { name: 'Find your campus' });
  await find.fill('lakeshore');
  await page
    .getByRole('listbox', { name: 'Campuses' })
    .getByRole('option', { name: /Lakeshore State/ })
    .click();
  await expect(
    page.getByText('Use your @lakeshore.edu address to sign up, or your Lakeshore State university account.'),
  ).toBeVisible();
  await shoot(page, 'university-sign-in-landing-chosen');
});
