import type { Page } from '@playwright/test';
import { settled } from './settle.js';

export const WIDTHS = { phone: 390, desktop: 1280 } as const;

/**
 * Saves the current screen at phone and desktop widths as test artifacts (e2e/artifacts/screens),
 * and also under `E2E_SHOTS_DIR` when set (a reviewer's folder outside the repository).
 */
export async function shoot(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  const extra = process.env.E2E_SHOTS_DIR;
  for (const [label, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: label === 'phone' ? 844 : 800 });
    await settled(page);
    await page.screenshot({ path: `artifacts/screens/${name}-${label}.png`, fullPage: true });
    if (extra) await page.screenshot({ path: `${extra}/${name}-${width}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
