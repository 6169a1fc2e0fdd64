import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORY_LABELS } from '@campus/contract';

// the spec's slips must not come back in texts written in the web app itself
// (the contract's messages are checked by contract/src/wording.test.ts).
const SLIPS = [
  /\batleast\b/i,
  /\bsucess\b/i,
  /\bThis your\b/,
  /\bDashBoard\b/,
  /['">]\s*SignUp\s*['"<]/,
  // Quiet hours end at 07:00 in the morning (NOTIFY_MESSAGES.settingsIntro states them).
  /\d{1,2}:\d{2} at night/i,
];
// Category names other than the contract's (CATEGORY_LABELS) that screens once used.
const OLD_CATEGORY_NAMES = ['Student Services', 'Fashion and Apparel', "'Lifestyle'", '>Lifestyle<'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('web wording', () => {
  const files = sources(path.resolve(import.meta.dirname));

  it('has none of the spec slips', () => {
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const slip of SLIPS) expect(text, file).not.toMatch(slip);
    }
  });

  it('names categories only as the contract does', () => {
    expect(Object.values(CATEGORY_LABELS)).not.toContain('Lifestyle');
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const old of OLD_CATEGORY_NAMES) expect(text, file).not.toContain(old);
    }
  });
});
