import { expect, type Page } from '@playwright/test';
import { settled } from './settle.js';

/**
 * Holds a toast on screen: hovering the toast list pauses sonner's timer, so a slow axe scan or
 * screenshot cannot outlive it. Then waits until it has finished sliding in.
 */
export async function holdToast(page: Page, toastText: ReturnType<Page['getByText']>) {
  await toastText.hover();
  await settled(page);
}

/** Toast close buttons: at least 44 × 44 px on phones and 24 × 24 px from tablet width up. */
export async function expectToastCloseTarget(page: Page, phone: boolean) {
  const close = page.getByRole('button', { name: 'Close toast' }).first();
  const box = await close.boundingBox();
  const min = phone ? 44 : 24;
  // Sub-pixel rounding of the toast's transform (23.999998 px for 24): whole pixels are compared.
  expect(Math.round(box?.width ?? 0)).toBeGreaterThanOrEqual(min);
  expect(Math.round(box?.height ?? 0)).toBeGreaterThanOrEqual(min);
}
