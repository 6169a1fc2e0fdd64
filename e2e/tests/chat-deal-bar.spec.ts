import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/axe.js';
import { makePhoto } from '../support/photo.js';
import { shoot } from '../support/shots.js';
import { registeredStudent } from '../support/students.js';
import { DESKTOP, PHONE } from '../support/viewports.js';

// The item and the deal pinned at the top of every chat: photo, name, price, status and the ONE
// next step for the viewer, live through a whole deal that the seller starts from the chat
// (reserve-from-chat), with a buyer's quick replies, focus after each step, axe and screenshots.

async function token(page: Page): Promise<string> {
  return (await page.evaluate(() => window.localStorage.getItem('token')))!;
}

async function myId(page: Page): Promise<number> {
  const res = await page.request.get('/users/info', {
    headers: { authorization: `Bearer ${await token(page)}` },
  });
  return ((await res.json()) as { id: number }).id;
}

/** A listing with a photo, through the API as the page's student; returns its id. */
async function postListingWithPhoto(page: Page, name: string, price: number): Promise<number> {
  const photo = await makePhoto('deal-bar-lamp', 'Lamp');
  const headers = { authorization: `Bearer ${await token(page)}` };
  const res = await page.request.post('/listing', {
    headers,
    multipart: {
      name,
      price: String(price),
      category: 'LIFESTYLE',
      description: `${name}, warm light, heavy base. Pick up at Wilson Hall.`,
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

const roomOf = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);
const unique = () => Date.now().toString(36).slice(-5);

test('the pinned item and next step lead both students through a deal the seller starts', async ({
  browser,
}) => {
  // Two students, a whole deal live, axe and screenshots at two widths: slow on a shared machine.
  test.slow();
  const sellerCtx = await browser.newContext({ viewport: DESKTOP });
  const buyerCtx = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  const seller = await sellerCtx.newPage();
  const buyer = await buyerCtx.newPage();
  await registeredStudent(seller, 'Nadia', 'Brooks');
  await registeredStudent(buyer, 'Omar', 'Lindqvist');
  const room = roomOf(await myId(seller), await myId(buyer));
  const lamp = `Brass desk lamp ${unique()}`;
  const listingId = await postListingWithPhoto(seller, lamp, 40);

  // The buyer opens a new chat: the item is pinned with its price and status, the next step is an
  // offer, and quick replies suggest the first words (about 10% under the asking price).
  await buyer.goto(`/single_listing/${listingId}`);
  await buyer.getByRole('button', { name: 'Chat with the seller' }).click();
  const buyerPin = buyer.getByRole('region', { name: 'Deal' });
  await expect(buyerPin).toContainText(lamp, { timeout: 30_000 });
  await expect(buyerPin).toContainText('$40');
  await expect(buyerPin).toContainText('Available');
  await expect(buyerPin.getByRole('button', { name: 'Make an offer' })).toBeVisible();
  const quick = buyer.getByRole('region', { name: 'Quick replies' });
  await expect(quick.getByRole('button')).toHaveText([
    'Is it still available?',
    'Can you do $36?',
    'When can we meet?',
  ]);
  // The pin stays compact on a phone: it does not eat the screen.
  const pinBox = (await buyerPin.boundingBox())!;
  expect(pinBox.height).toBeLessThan(120);
  await shoot(buyer, 'chat-deal-bar-new-chat');
  await expectAccessible(buyer, 'chat-deal-bar-new-chat');

  // One tap sends the question; the quick replies go.
  await quick.getByRole('button', { name: 'Is it still available?' }).click();
  await expect(buyer.getByRole('log').getByText('Is it still available?')).toBeVisible();
  await expect(quick).toHaveCount(0);

  // The seller sees no quick replies; their next step is to offer the lamp to Omar (reserve-from-chat).
  await seller.goto(`/chat/${room}`);
  await expect(seller.getByRole('log').getByText('Is it still available?')).toBeVisible({ timeout: 30_000 });
  await expect(seller.getByRole('region', { name: 'Quick replies' })).toHaveCount(0);
  const sellerPin = seller.getByRole('region', { name: 'Deal' });
  await sellerPin.getByRole('button', { name: 'Offer it to Omar' }).click();
  const offerDialog = seller.getByRole('dialog', { name: 'Offer it to Omar' });
  const price = offerDialog.getByLabel('The price you agreed ($)');
  // The dialog opens on its one field, with the keypad for amounts.
  await expect(price).toBeFocused();
  await expect(price).toHaveAttribute('inputmode', 'decimal');
  await price.fill('38');
  await offerDialog.getByRole('button', { name: 'Offer to Omar' }).click();
  // Focus goes to the next step, which now says what the seller waits for.
  const sellerStep = sellerPin.getByRole('button', { name: 'Waiting for Omar to answer your $38 offer' });
  await expect(sellerStep).toBeFocused();
  await expect(seller.getByRole('article', { name: 'You offered it for $38' })).toBeVisible();

  // Live on the buyer's phone: the next step is to answer; it takes them to the card.
  const answer = buyerPin.getByRole('button', { name: "Answer Nadia's offer of $38" });
  await answer.click();
  const card = buyer.getByRole('article', { name: 'Nadia offered it to you for $38' });
  await expect(card).toBeFocused();
  await shoot(buyer, 'chat-deal-bar-answer-offer');
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(card.getByRole('status')).toHaveText('Accepted · reserved');
  await expect(card).toBeFocused();
  // The system line speaks to each reader.
  await expect(
    buyer.getByRole('log').getByText("You accepted Nadia's offer of $38. It's reserved for you."),
  ).toBeVisible();
  await expect(
    seller.getByRole('log').getByText("Omar accepted your offer of $38. It's reserved for Omar."),
  ).toBeVisible();
  await expect(buyerPin).toContainText('Reserved for you');
  await expect(sellerPin).toContainText('Reserved for Omar');

  // Reserved: the buyer proposes a meet-up; the time defaults to a full hour.
  await buyerPin.getByRole('button', { name: 'Propose a meet-up' }).click();
  const meet = buyer.getByRole('dialog', { name: 'Propose a meet-up' });
  await expect(meet.getByRole('radio').first()).toBeFocused();
  await expect(meet.getByLabel('When')).toHaveValue(/T\d{2}:00$/);
  await meet.getByRole('button', { name: 'Propose meet-up' }).click();
  await expect(
    buyerPin.getByRole('button', { name: 'Waiting for Nadia to answer your meet-up' }),
  ).toBeFocused();

  // The seller answers it from the pinned step, then the hand-off is next on both sides.
  await sellerPin.getByRole('button', { name: "Answer Omar's meet-up proposal" }).click();
  const meetCard = seller.getByRole('article', { name: 'Omar proposed a meet-up' });
  await expect(meetCard).toBeFocused();
  await meetCard.getByRole('button', { name: 'Accept' }).click();
  await expect(meetCard.getByRole('status')).toHaveText('Confirmed');
  await expect(meetCard).toBeFocused();
  await expect(sellerPin.getByRole('button', { name: 'Enter hand-off code' })).toBeVisible();
  await shoot(seller, 'chat-deal-bar-reserved-seller');

  await buyerPin.getByRole('button', { name: 'Show hand-off code' }).click();
  const codeDialog = buyer.getByRole('dialog', { name: 'Your hand-off code' });
  const code = (await codeDialog.getByTestId('handoff-code').textContent())!.trim();
  expect(code).toMatch(/^\d{4}$/);
  await shoot(buyer, 'chat-deal-bar-handoff-code');
  await codeDialog.getByRole('button', { name: 'Done' }).click();

  await sellerPin.getByRole('button', { name: 'Enter hand-off code' }).click();
  const entry = seller.getByRole('dialog', { name: 'Enter hand-off code' });
  const field = entry.getByLabel("Omar's 4-digit code");
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('inputmode', 'numeric');
  await field.fill(code);
  await entry.getByRole('button', { name: 'Confirm hand-off' }).click();

  // Sold: the next step is to rate, on both sides; focus is on it for the seller.
  await expect(sellerPin).toContainText('Sold');
  await expect(sellerPin.getByRole('button', { name: 'Rate Omar' })).toBeFocused();
  await expect(buyerPin.getByRole('button', { name: 'Rate Nadia' })).toBeVisible();

  // The finished chat scrolls by keyboard (a named, focusable message region).
  const history = buyer.getByRole('region', { name: 'Message history with Nadia Brooks' });
  await expect(history).toHaveAttribute('tabindex', '0');
  await shoot(buyer, 'chat-deal-bar-sold');
  await expectAccessible(buyer, 'chat-deal-bar-sold');
  await expectAccessible(seller, 'chat-deal-bar-sold-seller');

  await sellerCtx.close();
  await buyerCtx.close();
});
