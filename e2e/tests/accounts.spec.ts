import { expect, test } from '@playwright/test';
import { readCode } from '../support/mail.js';
import { shoot } from '../support/shots.js';
import { logIn, newStudent, signUpAndVerify } from '../support/students.js';

test('landing page: every section, and buttons that depend on being logged in', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const id of ['home', 'features', 'categories', 'how-it-works', 'about']) {
    await expect(page.locator(`#${id}`)).toBeAttached();
  }
  await expect(page.getByRole('link', { name: 'Sign Up' }).first()).toBeVisible();
  await shoot(page, 'landing');
});

test('sign up, verify with the e-mailed code, log in, change password, log out, reset', async ({ page }) => {
  const s = newStudent('Jordan', 'Rivera');

  await page.goto('/signup');
  await shoot(page, 'signup');
  // Validation shows next to the field before any call.
  await page.getByLabel('First name').fill(s.firstName);
  await page.getByLabel('Last name').fill(s.lastName);
  await page.getByLabel('MSU email').fill(s.email);
  await page.getByLabel('Strong password').fill('short');
  await page.getByRole('button', { name: 'Get on Board!' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(page).toHaveURL(/\/signup/);

  await signUpAndVerify(page, s);
  await shoot(page, 'login');

  // A wrong password shows the spec's toast.
  await page.getByLabel('Email').fill(s.email);
  await page.getByLabel('Password', { exact: true }).fill('not-my-password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Login failed: Incorrect Credentials')).toBeVisible();

  await logIn(page, s);
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByRole('heading', { name: "Today's Latest Products" })).toBeVisible();
  await shoot(page, 'dashboard');

  // Change password through the Settings menu.
  await page.goto('/changePass');
  await shoot(page, 'change-password');
  await page.getByLabel('Current password').fill('wrong-current-pw');
  await page.getByLabel('New password').fill('new-spartan-pass-1');
  await page.getByRole('button', { name: 'Update My Password' }).click();
  await expect(page.getByText(/^Update Failed: /)).toBeVisible();
  await page.getByLabel('Current password').fill(s.password);
  await page.getByRole('button', { name: 'Update My Password' }).click();
  await expect(page.getByText('Password updated', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/all_listings/, { timeout: 5000 });
  s.password = 'new-spartan-pass-1';

  // Still logged in after the change (this session got a fresh token); then log out.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard/);
  await page.getByRole('button', { name: 'Log Out' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // Forgot password: two steps, code from the e-mail, then log in with the new password.
  await page.goto('/resetPass');
  await shoot(page, 'reset-step1');
  await page.getByLabel('Registered university email').fill(s.email);
  await page.getByRole('button', { name: 'Get My Code' }).click();
  await expect(page.getByText('Verification Code sent to registered email')).toBeVisible();
  const code = await readCode(s.email, 1);
  await page.getByLabel('New password').fill('short');
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Confirm the reset' }).click();
  await expect(page.getByText('The new password must be at least 8 characters').first()).toBeVisible();
  await page.getByLabel('New password').fill('reset-spartan-pass-2');
  await shoot(page, 'reset-step2');
  await page.getByRole('button', { name: 'Confirm the reset' }).click();
  await expect(page.getByText('Password has been Reset')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  s.password = 'reset-spartan-pass-2';
  await logIn(page, s);
  await expect(page).toHaveURL(/\/dashboard/);
});

test('the login guard sends visitors to /login and returns them where they were going', async ({ page }) => {
  const s = newStudent('Casey', 'Nguyen');
  await signUpAndVerify(page, s);
  await page.goto('/personalListings');
  await expect(page).toHaveURL(/\/login/);
  await logIn(page, s);
  await expect(page).toHaveURL(/\/personalListings/);
});
