// Accessibility checks for the browser journeys: axe-core on the page as it is now, at
// phone and desktop widths, failing on any serious or critical violation. Call it from any spec:
//
//   import { expectAccessible } from '../support/axe.js';
//   await expectAccessible(page, 'inbox-with-room');            // 390 and 1280 px
//   await expectAccessible(page, 'toast', { widths: [390], toasts: true });   // one width, toasts included
//
// Each scan's full result is saved as e2e/artifacts/axe/<name>-<width>.json for reading later.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { settled } from './settle.js';
import { WIDTHS } from './shots.js';

export interface AxeOptions {
  /** Viewport widths to scan at (default: 390 and 1280). The viewport is restored afterwards. */
  widths?: readonly number[];
  /** CSS selectors left out of the scan (e.g. a third-party widget we do not control). */
  exclude?: readonly string[];
  /** Rule ids to skip, each with a reason in the calling spec. */
  disableRules?: readonly string[];
  /** Only these parts of the page (CSS selectors), e.g. an open dialog. */
  include?: readonly string[];
  /**
   * Scan toasts too (a scan meant for one). Other scans leave them out: a toast may start fading out
   * during the scan, and axe then measures its colours half transparent (a CI flake).
   */
  toasts?: boolean;
}

const TOASTS = '[data-sonner-toast]';

const FAILING_IMPACTS = new Set(['serious', 'critical']);

/** The standards we hold the app to: WCAG 2.2 A/AA and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export async function expectAccessible(page: Page, name: string, options: AxeOptions = {}): Promise<void> {
  const widths = options.widths ?? [WIDTHS.phone, WIDTHS.desktop];
  const original = page.viewportSize();
  const dir = path.resolve('artifacts/axe');
  mkdirSync(dir, { recursive: true });
  const problems: string[] = [];
  try {
    for (const width of widths) {
      if (page.viewportSize()?.width !== width) {
        await page.setViewportSize({ width, height: width < 768 ? 844 : 800 });
      }
      // Layout, transitions and media queries settle before scanning (no fixed wait).
      await settled(page);
      let builder = new AxeBuilder({ page }).withTags(TAGS);
      for (const selector of options.include ?? []) builder = builder.include(selector);
      for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
      if (!options.toasts) builder = builder.exclude(TOASTS);
      if (options.disableRules?.length) builder = builder.disableRules([...options.disableRules]);
      const result = await builder.analyze();
      writeFileSync(path.join(dir, `${name}-${width}.json`), JSON.stringify(result, null, 2));
      for (const v of result.violations) {
        if (!v.impact || !FAILING_IMPACTS.has(v.impact)) continue;
        const nodes = v.nodes
          .slice(0, 5)
          .map(
            (n) =>
              `      ${n.target.join(' ')}\n        ${n.failureSummary?.replace(/\n/g, '\n        ') ?? ''}`,
          )
          .join('\n');
        problems.push(`  [${width}px] ${v.impact} ${v.id}: ${v.help}\n${nodes}`);
      }
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
  expect(problems, `axe found serious or critical problems on "${name}":\n${problems.join('\n')}`).toEqual(
    [],
  );
}
