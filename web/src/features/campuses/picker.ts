/**
 * The keyboard of the campus picker: a combobox whose list pops up under the text (WAI-ARIA APG,
 * "list autocomplete with manual selection"). Typing filters and opens the list without choosing;
 * the arrows move through the options (wrapping), Enter chooses the highlighted one — or the
 * first, so "uw.edu ⏎" is enough — and Escape closes the list, then clears the text.
 */

export interface PickerState {
  /** What the input shows. */
  text: string;
  /** Whether the list of campuses is shown. */
  open: boolean;
  /** The highlighted option (aria-activedescendant), -1 for none. */
  active: number;
}

export const closedPicker = (text = ''): PickerState => ({ text, open: false, active: -1 });

export function typed(text: string): PickerState {
  return { text, open: true, active: -1 };
}

export interface KeyResult {
  state: PickerState;
  /** The option to choose (an index into the list shown). */
  choose?: number;
  /** The text was cleared with Escape: the choice goes too. */
  cleared?: boolean;
  /** The key was the picker's: the page must not act on it too (no form submit on Enter). */
  handled: boolean;
}

/** What a key press in the input does, with `count` options in the list. */
export function pickerKey(state: PickerState, key: string, count: number, altKey = false): KeyResult {
  switch (key) {
    case 'ArrowDown': {
      if (!state.open)
        return { state: { ...state, open: true, active: altKey || count === 0 ? -1 : 0 }, handled: true };
      if (count === 0) return { state, handled: true };
      return { state: { ...state, active: (state.active + 1) % count }, handled: true };
    }
    case 'ArrowUp': {
      if (altKey) return { state: { ...state, open: false, active: -1 }, handled: true };
      if (count === 0) return { state: { ...state, open: true }, handled: true };
      const active = !state.open || state.active <= 0 ? count - 1 : state.active - 1;
      return { state: { ...state, open: true, active }, handled: true };
    }
    case 'Enter': {
      if (!state.open || count === 0) return { state, handled: state.open };
      return { state, choose: state.active >= 0 ? state.active : 0, handled: true };
    }
    case 'Escape': {
      if (state.open) return { state: { ...state, open: false, active: -1 }, handled: true };
      if (state.text !== '') return { state: closedPicker(), cleared: true, handled: true };
      return { state, handled: false };
    }
    case 'Tab':
      return { state: { ...state, open: false, active: -1 }, handled: false };
    default:
      return { state, handled: false };
  }
}
