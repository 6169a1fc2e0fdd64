import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';

// features.md §H on a phone: a giveaway from posting to hand-off with three claimants. The claim
// window is moved past with the test server's clock (/e2e/clock) and the giver's browser clock.

const HOUR = 3_600_000;
const phone = { width: 390, height: 844 };

async function apiAs<T>(page: Page, method: 'GET' | 'POST', url: string, data?: unknown): Promise<T> {
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const res = await page.request.fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

const roomOf = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

test.afterAll(async ({ request }) => {
  // Later journeys on this server see real time again (university sign-in checks the ID token's
  // expiry against this clock).
  await request.post('/e2e/clock', { data: { reset: true } });
});

test('a free item is claimed by three, drawn, picked up with the hand-off code', async ({ browser }) => {
  test.slow();
  const giverCtx = await browser.newContext({ viewport: phone });
  const giver = await giverCtx.newPage();
  // The giver's page decides when Choose and Draw show from its own clock: it moves with the server's.
  await giver.clock.install();
  await registeredStudent(giver, 'Gina', 'Okafor');
  const claimants: Page[] = [];
  const names = ['Theo', 'Priya', 'Lena'];
  for (const name of names) {
    const page = await (await browser.newContext({ viewport: phone })).newPage();
    await registeredStudent(page, name, 'Student');
    claimants.push(page);
  }
  const item = `Floor lamp ${Date.now().toString(36).slice(-5)}`;

  // The giver posts it as free: no price, claims open for an hour.
  await giver.goto('/addlisting');
  await giver.getByLabel('Name').fill(item);
  await giver.getByRole('checkbox', { name: /Give it away for free/ }).check();
  await expect(giver.getByLabel('Price')).toHaveCount(0);
  await giver.getByLabel('Claims stay open for').selectOption('1');
  await giver.getByLabel('Category').selectOption('LIFESTYLE');
  await giver.getByLabel('Description').fill('Tall lamp with a warm bulb. Moving out, it needs a new home.');
  await expectAccessible(giver, 'giveaway-sell-form');
  await shoot(giver, 'giveaway-sell-form');
  await giver.getByRole('button', { name: 'Add listing' }).click();
  await expect(giver).toHaveURL(/\/all_listings/);
  const mine = await apiAs<Array<{ id: number; name: string; free: boolean }>>(
    giver,
    'GET',
    '/listings/self',
  );
  const listing = mine.find((l) => l.name === item)!;
  expect(listing.free).toBe(true);

  // A claimant finds it with the Free filter: the card says Free.
  const [first] = claimants;
  await first!.goto('/all_listings?free=true');
  const card = first!.getByRole('article').filter({ hasText: item });
  await expect(card.getByText('Free', { exact: true }).first()).toBeVisible();
  await expectAccessible(first!, 'giveaway-free-filter');
  await shoot(first!, 'giveaway-free-filter');
  await first!.getByRole('button', { name: /Show filters/ }).click();
  await expect(first!.getByRole('checkbox', { name: 'Free items only' })).toBeChecked();

  // Three claims with a note each; no "Make an offer" on a free item.
  for (const [i, page] of claimants.entries()) {
    await page.goto(`/single_listing/${listing.id}`);
    await expect(page.getByRole('button', { name: 'Make an offer' })).toHaveCount(0);
    await page.getByLabel(/A note for Gina/).fill(`I can pick it up tonight (${names[i]})`);
    if (i === 0) {
      await expectAccessible(page, 'giveaway-claim-form');
      await shoot(page, 'giveaway-claim-form');
    }
    await page.getByRole('button', { name: 'Claim it' }).click();
    await expect(page.getByText('You claimed this.')).toBeVisible();
  }

  // The giver sees the claims; Choose and Draw wait for the window to close.
  await giver.goto(`/single_listing/${listing.id}`);
  const claimsPanel = giver.getByRole('region', { name: /Claims/ });
  await expect(claimsPanel.getByRole('listitem')).toHaveCount(3);
  await expect(claimsPanel.getByRole('button', { name: 'Draw a winner' })).toHaveCount(0);

  // An hour and a minute later (server and browser), the giver draws.
  const moved = await (await giver.request.post('/e2e/clock', { data: { advanceMs: HOUR + 60_000 } })).json();
  await giver.clock.setSystemTime(new Date(moved.now as string));
  await giver.reload();
  await expect(claimsPanel.getByRole('button', { name: 'Draw a winner' })).toBeVisible();
  await expect(claimsPanel.getByRole('button', { name: /^Choose / })).toHaveCount(3);
  await expectAccessible(giver, 'giveaway-giver-claims');
  await shoot(giver, 'giveaway-giver-claims');
  await claimsPanel.getByRole('button', { name: 'Draw a winner' }).click();
  await expect(claimsPanel.getByText('Picking up')).toBeVisible();

  // Who won is in the recorded draw.
  const draw = await apiAs<{ winnerClaimId: number; orderClaimIds: number[]; method: string }>(
    giver,
    'GET',
    `/listings/${listing.id}/claims/draw`,
  );
  expect(draw.method).toBe('DRAWN');
  const claims = await apiAs<Array<{ id: number; claimantId: number; claimant: { firstName: string } }>>(
    giver,
    'GET',
    `/listings/${listing.id}/claims`,
  );
  const won = claims.find((c) => c.id === draw.winnerClaimId)!;
  const winner = claimants[names.indexOf(won.claimant.firstName)]!;
  const losers = claimants.filter((p) => p !== winner);
  const giverId = (await apiAs<{ id: number }>(giver, 'GET', '/users/info')).id;

  // The winner's card in the chat: free, with the time to pick it up by.
  await winner.goto(`/chat/${roomOf(giverId, won.claimantId)}`);
  const pickup = winner.getByRole('article', { name: 'It’s yours — free' });
  await expect(pickup.getByRole('status')).toHaveText(/^Pick up by /);
  await expectAccessible(winner, 'giveaway-winner-chat');
  await shoot(winner, 'giveaway-winner-chat');

  // The others are told kindly, with their place in line.
  const loser = losers[0]!;
  await loser.goto(`/single_listing/${listing.id}`);
  await expect(loser.getByText(/Someone else got it this time/)).toBeVisible();
  await expect(loser.getByText(/You’re number [23] in line/)).toBeVisible();
  await expectAccessible(loser, 'giveaway-someone-else');
  await shoot(loser, 'giveaway-someone-else');

  // The pickup: the winner shows the code, the giver types it.
  await winner.getByRole('button', { name: 'Show hand-off code' }).click();
  const codeText = winner.getByRole('dialog', { name: 'Your hand-off code' }).getByTestId('handoff-code');
  await expect(codeText).toHaveText(/^\d{4}$/);
  const code = (await codeText.textContent()) ?? '';
  await giver.goto(`/chat/${roomOf(giverId, won.claimantId)}`);
  await giver.getByRole('button', { name: 'Enter hand-off code' }).click();
  const entry = giver.getByRole('dialog', { name: 'Enter hand-off code' });
  await entry.getByLabel(`${won.claimant.firstName}'s 4-digit code`).fill(code);
  await entry.getByRole('button', { name: 'Confirm hand-off' }).click();
  await expect(entry).toBeHidden();
  await expect(giver.getByRole('log').getByText(/Hand-off confirmed/)).toBeVisible();

  // Everyone still in line hears it went; the winner's claim is done.
  const lost = await apiAs<{ notifications: Array<{ type: string; title: string }> }>(
    loser,
    'GET',
    '/notifications',
  );
  expect(lost.notifications[0]).toMatchObject({
    type: 'CLAIM_LOST',
    title: `Someone else got “${item}” this time`,
  });
  await winner.goto(`/single_listing/${listing.id}`);
  await expect(winner.getByText('You picked this up. Enjoy it!')).toBeVisible();
});
