import { describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_LABELS, CATEGORY_TILES } from './categories.js';
import { MESSAGES } from './messages.js';
import { NOTIFICATION_LIMITS, NOTIFY_MESSAGES } from './notifications.js';

/** Every message as text (functions called with a sample argument). */
function allTexts(): string[] {
  return [
    ...Object.values(MESSAGES).map((m) => (typeof m === 'function' ? m('120' as never as never) : m)),
    ...Object.values(NOTIFY_MESSAGES),
  ];
}

// The spec's misspellings and odd capitals (issue 14), and common slips; none may come back.
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
