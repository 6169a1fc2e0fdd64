// Usability and accessibility, as a keyboard-only student on a flaky network would meet it, with
// axe-core on every screen and on the states that matter, at 390 and 1280 px.
// This file: the public screens.
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { DESKTOP } from '../support/viewports.js';

// Axe scans take seconds each on a busy machine: these journeys get room for them.
// Each journey is kept to a few minutes of a loaded machine; the budget is for the slowest case.
test.describe.configure({ timeout: 420_000 });

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
  // The landing page describes what exists (pay in person), not escrow or ratings.
  await page.goto('/');
  await expect(page.getByText('Campus Market does not handle payments.', { exact: false })).toBeVisible();
  await expect(page.getByText(/release payment|rate the exchange/)).toHaveCount(0);
  // One spelling and one name per category.
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Sign Up', exact: true })).toBeVisible();
});
