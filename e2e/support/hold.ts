import type { Page } from '@playwright/test';

/** The app's entry script: held, a server-rendered page stays as its HTML drew it (not hydrated). */
export const APP_ENTRY = /\/assets\/index-[^/]+\.js$/;

/**
 * Holds the page's requests for `pattern` until the returned function is called, so a test can act
 * on a page in the moment before that script has arrived.
 */
export async function holdRequests(page: Page, pattern: RegExp): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
