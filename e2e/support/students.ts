import { expect, type Page } from '@playwright/test';
import { readCode } from './mail.js';

let seq = 0;

export interface E2EStudent {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** The e-mail domains of the test server's campuses (support/serve.ts): MSU is the default. */
export const CAMPUS_DOMAINS = { msu: 'msu.edu', uw: 'uw.edu' } as const;

export function newStudent(
  firstName: string,
  lastName: string,
  domain: string = CAMPUS_DOMAINS.msu,
): E2EStudent {
  seq += 1;
  return {
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}.${Date.now().toString(36)}${seq}@${domain}`,
    password: 'spartan-market-2026',
  };
}

/** Signs up, reads the code from the captured e-mail and verifies — through the UI. */
export async function signUpAndVerify(page: Page, s: E2EStudent): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('First name').fill(s.firstName);
  await page.getByLabel('Last name').fill(s.lastName);
  await page.getByLabel('MSU email').fill(s.email);
  await page.getByLabel('Strong password').fill(s.password);
  await page.getByRole('button', { name: 'Get on Board!' }).click();
  await expect(page).toHaveURL(/\/verify/);
  const code = await readCode(s.email);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
}

export async function logIn(page: Page, s: E2EStudent): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel('Email').fill(s.email);
  await page.getByLabel('Password', { exact: true }).fill(s.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/**
 * A verified account made by the test server (support/serve.ts), as a finished sign-up leaves it:
 * for journeys that are not about signing up (accounts.spec.ts walks through those screens).
 */
export async function seedStudent(page: Page, s: E2EStudent): Promise<void> {
  const res = await page.request.post('/e2e/students', { data: s });
  expect(res.status(), await res.text()).toBe(201);
}

/** A verified student, logged in through the form, on the dashboard. */
export async function registeredStudent(
  page: Page,
  firstName: string,
  lastName: string,
  domain: string = CAMPUS_DOMAINS.msu,
): Promise<E2EStudent> {
  const s = newStudent(firstName, lastName, domain);
  await seedStudent(page, s);
  await logIn(page, s);
  await expect(page).toHaveURL(/\/dashboard/);
  return s;
}
