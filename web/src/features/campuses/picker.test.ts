import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CampusSummary } from '@campus/contract';
import { CampusPicker, listStatus } from './CampusPicker';
import { closedPicker, pickerKey, typed, type PickerState } from './picker';

/** Presses keys in turn with `count` options shown; returns the last result. */
function press(state: PickerState, keys: string[], count: number) {
  let result = pickerKey(state, keys[0] as string, count);
  for (const key of keys.slice(1)) result = pickerKey(result.state, key, count);
  return result;
}

describe('campus picker keyboard', () => {
  it('typing opens the list with nothing highlighted', () => {
    expect(typed('wash')).toEqual({ text: 'wash', open: true, active: -1 });
  });

  it('ArrowDown opens the list on the first option, then moves down and wraps', () => {
    expect(pickerKey(closedPicker(), 'ArrowDown', 3).state).toEqual({ text: '', open: true, active: 0 });
    expect(press(typed('u'), ['ArrowDown', 'ArrowDown'], 3).state.active).toBe(1);
    expect(press(typed('u'), ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown'], 3).state.active).toBe(0);
  });

  it('Alt+ArrowDown opens the list without highlighting; Alt+ArrowUp closes it', () => {
    const opened = pickerKey(closedPicker(), 'ArrowDown', 3, true);
    expect(opened.state).toEqual({ text: '', open: true, active: -1 });
    expect(pickerKey(opened.state, 'ArrowUp', 3, true).state.open).toBe(false);
  });

  it('ArrowUp goes to the last option and moves up, wrapping', () => {
    expect(pickerKey(typed('u'), 'ArrowUp', 3).state.active).toBe(2);
    expect(press(typed('u'), ['ArrowDown', 'ArrowUp'], 3).state.active).toBe(2);
    expect(press(typed('u'), ['ArrowUp', 'ArrowUp'], 3).state.active).toBe(1);
  });

  it('Enter chooses the highlighted option, or the first, and is not left to the form', () => {
    const highlighted = press(typed('u'), ['ArrowDown', 'ArrowDown', 'Enter'], 3);
    expect(highlighted).toMatchObject({ choose: 1, handled: true });
    expect(pickerKey(typed('uw.edu'), 'Enter', 1)).toMatchObject({ choose: 0, handled: true });
  });

  it('Enter chooses nothing with no match, and submits the form when the list is closed', () => {
    const none = pickerKey(typed('harvard'), 'Enter', 0);
    expect(none.choose).toBeUndefined();
    expect(none.handled).toBe(true);
    const closed = pickerKey(closedPicker('MSU'), 'Enter', 4);
    expect(closed.choose).toBeUndefined();
    expect(closed.handled).toBe(false);
  });

  it('Escape closes the list first, then clears the text (and the choice)', () => {
    const first = pickerKey({ text: 'wash', open: true, active: 0 }, 'Escape', 1);
    expect(first).toMatchObject({ state: { text: 'wash', open: false, active: -1 }, handled: true });
    expect(first.cleared).toBeUndefined();
    const second = pickerKey(first.state, 'Escape', 1);
    expect(second).toMatchObject({ state: { text: '', open: false }, cleared: true, handled: true });
    // Nothing left to close or clear: Escape is the page's (a dialog around the form, say).
    expect(pickerKey(closedPicker(), 'Escape', 4).handled).toBe(false);
  });

  it('Tab closes the list and moves on; other keys are the text field’s', () => {
    expect(pickerKey({ text: 'u', open: true, active: 1 }, 'Tab', 3)).toMatchObject({
      state: { open: false, active: -1 },
      handled: false,
    });
    expect(pickerKey(typed('u'), 'a', 3)).toMatchObject({ state: typed('u'), handled: false });
  });

  it('arrows do nothing harmful with no option', () => {
    expect(press(typed('zz'), ['ArrowDown', 'ArrowDown', 'ArrowUp'], 0).state.active).toBe(-1);
  });
});

describe('campus picker markup', () => {
  const UW: CampusSummary = { slug: 'uw', name: 'University of Washington', emailDomains: ['uw.edu'] };
  const MSU: CampusSummary = { slug: 'msu', name: 'MSU', emailDomains: ['msu.edu'] };
  const render = (value: CampusSummary | null, hint?: string) =>
    renderToStaticMarkup(
      createElement(CampusPicker, { campuses: [UW, MSU], value, onChange: () => undefined, hint }),
    );

  it('is a labelled combobox controlling a list of the campuses with their addresses', () => {
    const html = render(null, 'Search by name or e-mail domain.');
    const inputId = /<input id="([^"]+)"/.exec(html)?.[1];
    expect(inputId).toBeTruthy();
    expect(html).toContain(`<label for="${inputId}"`);
    expect(html).toContain('>Find your campus</label>');
    expect(html).toContain('role="combobox"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('aria-autocomplete="list"');
    expect(html).toContain(`aria-controls="${inputId}-list"`);
    expect(html).toContain(`aria-describedby="${inputId}-hint"`);
    expect(html).toContain(`<p id="${inputId}-hint"`);
    expect(html).toMatch(new RegExp(`<ul id="${inputId}-list" role="listbox" aria-label="Campuses" hidden`));
    expect(html).toContain('role="option" aria-selected="false"');
    expect(html).toContain('<span class="font-semibold">MSU</span>');
    expect(html).toContain('@uw.edu</span>');
    expect(html).not.toContain('aria-activedescendant');
    // No text: nothing to clear.
    expect(html).not.toContain('Clear campus search');
  });

  it('shows the chosen campus in the field, with a way to clear it', () => {
    const html = render(UW);
    expect(html).toContain('value="University of Washington"');
    expect(html).toContain('aria-label="Clear campus search"');
  });

  it('announces how many campuses the list holds', () => {
    expect(listStatus(0, ' harvard ')).toBe('No campus matches "harvard".');
    expect(listStatus(1, 'uw')).toBe('1 campus found.');
    expect(listStatus(3, 'u')).toBe('3 campuses found.');
  });
});
