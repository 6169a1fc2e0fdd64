// Waits until the page has stopped moving: two animation frames (layout and media queries after a
// viewport change), then every finite CSS animation and transition running now has finished
// (toasts sliding in, panels opening). Endless ones (spinners) are not waited for. Use it before
// reading positions or sizes, scanning with axe or taking a screenshot, instead of a fixed wait.
import type { Page } from '@playwright/test';

export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    await frame();
    await frame();
    const finite = document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity && a.playState === 'running');
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    await frame();
  });
}
