import type { Page } from '@playwright/test';

/**
 * Opens `path` as the browser renders it by itself, without the first screen the server renders
 * into the HTML: the page is requested without the `cm_token` cookie, as for a visitor whose cookie
 * is gone (the app's boot script writes it again from the stored token for the next page). The
 * page's first API calls are then the browser's own — what a test of a failed load intercepts.
 */
export async function gotoBrowserRendered(page: Page, path: string): Promise<void> {
  await page.context().clearCookies({ name: 'cm_token' });
  await page.goto(path);
}
