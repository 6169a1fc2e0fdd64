import { describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_LABELS, CATEGORY_TILES } from './categories.js';
import * as contract from './index.js';
import { NOTIFICATION_LIMITS, NOTIFY_MESSAGES } from './notifications.js';

/** Every message table the contract exports: `MESSAGES` and each `*_MESSAGES`. */
const messageTables = Object.entries(contract).filter(
  ([name, value]) => /^([A-Z]+_)*MESSAGES$/.test(name) && typeof value === 'object' && value !== null,
) as Array<[string, Record<string, unknown>]>;

/**
 * A message as text: functions are called with sample arguments (a number and a name each, or a
 * name and a list of names); the shapes a function does not take are skipped, and every function
 * must take at least one.
 */
function asText(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function') {
    const fn = value as (...args: unknown[]) => unknown;
    const shapes: unknown[][] = [
      [120, 'Maya', 'Maya'],
      ['Maya', 120, 'Maya'],
      ['maya.edu', ['msu.edu', 'uw.edu']],
      ['maya.edu', Array.from({ length: 8 }, (_, i) => `campus${i}.edu`)],
    ];
    const texts = shapes.flatMap((args) => {
      try {
        const text = fn(...args);
        return typeof text === 'string' ? [text] : [];
      } catch {
        return [];
      }
    });
    if (texts.length === 0)
      throw new Error(`a message function takes none of the sample shapes: ${fn.toString()}`);
    return texts;
  }
  return [];
}

/** Every message as text, from every message table. */
function allTexts(): string[] {
  return messageTables.flatMap(([, table]) => Object.values(table).flatMap(asText));
}

// The spec's misspellings and odd capitals, and common slips; none may come back.
const MISSPELLINGS = [
  /\batleast\b/i,
  /\bsucess\b/i,
  /\bThis your\b/,
  /\bDashBoard\b/,
  /\bSignUp\b/,
  /\brecieve/i,
  /\bseperat/i,
  /\boccured\b/i,
  /\bdefinately\b/i,
  /\baccomodat/i,
  /\buntill\b/i,
  /\bwich\b/i,
];

describe('user-facing wording', () => {
  it('reads every message table the contract exports', () => {
    expect(messageTables.map(([name]) => name).sort()).toEqual(
      expect.arrayContaining([
        'AUTH_MESSAGES',
        'CHAT_LIMIT_MESSAGES',
        'DEALS_MESSAGES',
        'MESSAGES',
        'NOTIFY_MESSAGES',
      ]),
    );
    expect(messageTables.length).toBeGreaterThanOrEqual(8);
  });

  it('has no known misspellings, doubled words or doubled spaces', () => {
    for (const text of allTexts()) {
      for (const bad of MISSPELLINGS) expect(text, text).not.toMatch(bad);
      expect(text, text).not.toMatch(/ {2}/);
      expect(text, text).not.toMatch(/\b(\w+) \1\b/i);
      expect(text.trim(), text).toBe(text);
    }
  });

  it('gives each category exactly one name, used by the tiles too', () => {
    const names = CATEGORIES.map((c) => CATEGORY_LABELS[c]);
    expect(new Set(names).size).toBe(CATEGORIES.length);
    for (const tile of CATEGORY_TILES) expect(tile.title).toBe(CATEGORY_LABELS[tile.category]);
  });

  it('states quiet hours as the server applies them: 22:00–07:00 campus time', () => {
    const text = NOTIFY_MESSAGES.settingsIntro;
    expect(NOTIFICATION_LIMITS.quietStartHour).toBe(22);
    expect(NOTIFICATION_LIMITS.quietEndHour).toBe(7);
    expect(text).toContain('22:00–07:00 campus time');
    expect(text).toContain('wait until 07:00.');
    // 7:00 is the morning: no clock time may be called night.
    for (const t of allTexts()) expect(t, t).not.toMatch(/\d{1,2}:\d{2} at night/i);
  });
});
