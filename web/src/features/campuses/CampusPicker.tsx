import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { SSO_MESSAGES, type CampusSummary } from '@campus/contract';
import { cx } from '../../ui/cx';
import { CloseIcon, SearchIcon } from '../../ui/icons';
import { inputClasses } from '../../ui/TextField';
import { closedPicker, pickerKey, typed, type PickerState } from './picker';
import { findCampuses } from './search';
import { addressList } from './wording';

export interface CampusPickerProps {
  campuses: readonly CampusSummary[];
  /** The chosen campus (controlled), or null. */
  value: CampusSummary | null;
  onChange: (campus: CampusSummary | null) => void;
  label?: string;
  /** Helper text under the field (also its description). */
  hint?: ReactNode;
  /** `lg` on the landing page, `md` in a form beside the other fields. */
  size?: 'md' | 'lg';
  className?: string;
}

/** The status read to screen readers as the list changes. */
export function listStatus(count: number, query: string): string {
  if (count === 0) return `No campus matches "${query.trim()}".`;
  return count === 1 ? '1 campus found.' : `${count} campuses found.`;
}

/**
 * "Find your campus" (features.md §E): a combobox over GET /public/campuses. Students type their
 * campus's name or their address's domain; the list under the field narrows as they type and
 * works with the keyboard (picker.ts) as well as by touch. Each campus shows its addresses and
 * whether it offers university sign-in (features.md §G). Choosing shows the campus's name in the
 * field; the page says what it accepts (its addresses) and where to go next.
 */
export function CampusPicker({
  campuses,
  value,
  onChange,
  label = 'Find your campus',
  hint,
  size = 'md',
  className,
}: CampusPickerProps) {
  const id = useId();
  const inputId = `campus-${id}`;
  const listId = `${inputId}-list`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const optionId = (index: number) => `${inputId}-option-${index}`;
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<PickerState>(() => closedPicker(value?.name ?? ''));
  // A choice made elsewhere (the link's ?campus=, the address typed in the form) shows here too.
  const [shown, setShown] = useState(value?.slug ?? null);
  if ((value?.slug ?? null) !== shown) {
    setShown(value?.slug ?? null);
    setState(closedPicker(value?.name ?? ''));
  }

  // The chosen campus's name in the field lists every campus, so the list is a way to change it.
  const query = value !== null && state.text === value.name ? '' : state.text;
  const results = findCampuses(campuses, query);
  const showList = state.open && results.length > 0;
  const showEmpty = state.open && results.length === 0;

  // A tap that landed before the page's script was ready focused the field but opened nothing:
  // the list opens now, as the tap asked.
  useEffect(() => {
    if (document.activeElement === input.current) setState((s) => ({ ...s, open: true }));
  }, []);

  useEffect(() => {
    if (state.active >= 0)
      document.getElementById(optionId(state.active))?.scrollIntoView({ block: 'nearest' });
    // optionId is derived from inputId, stable for the component's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.active]);

  function choose(campus: CampusSummary) {
    setState(closedPicker(campus.name));
    setShown(campus.slug);
    onChange(campus);
  }

  /** The text no longer names the chosen campus: the choice goes (the text stays as typed). */
  function unchoose() {
    if (value === null) return;
    setShown(null);
    onChange(null);
  }

  function onText(text: string) {
    setState(typed(text));
    if (value !== null && text !== value.name) unchoose();
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const result = pickerKey(state, e.key, results.length, e.altKey);
    if (result.handled) e.preventDefault();
    setState(result.state);
    const chosen = result.choose !== undefined ? results[result.choose] : undefined;
    if (chosen) choose(chosen);
    if (result.cleared) unchoose();
  }

  function clear() {
    setState(typed(''));
    unchoose();
    input.current?.focus();
  }

  const large = size === 'lg';
  return (
    <div className={cx('relative', className)}>
      <label
        htmlFor={inputId}
        className={cx('block text-slate-800', large ? 'text-base font-semibold' : 'text-sm font-medium')}
      >
        {label}
      </label>
      <div className={cx('relative', large ? 'mt-2' : 'mt-1.5')}>
        <SearchIcon
          size={large ? 20 : 18}
          className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-slate-500"
        />
        <input
          ref={input}
          id={inputId}
          type="text"
          role="combobox"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showList && state.active >= 0 ? optionId(state.active) : undefined}
          aria-describedby={hintId}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="Campus name or e-mail domain"
          value={state.text}
          onChange={(e) => onText(e.target.value)}
          onKeyDown={onKeyDown}
          onClick={() => setState((s) => ({ ...s, open: true }))}
          onFocus={(e) => {
            if (value !== null) e.currentTarget.select();
          }}
          onBlur={() => setState((s) => ({ ...s, open: false, active: -1 }))}
          className={cx(
            inputClasses,
            'border-slate-300 pr-12 pl-10 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-100',
            large && 'h-12 sm:text-base',
          )}
        />
        {state.text !== '' && (
          <button
            type="button"
            onClick={clear}
            aria-label="Clear campus search"
            className="absolute inset-y-0 right-1 my-auto inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800"
          >
            <CloseIcon size={18} />
          </button>
        )}
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label="Campuses"
        hidden={!showList}
        className="absolute inset-x-0 z-20 mt-2 max-h-80 overflow-y-auto rounded-2xl border border-slate-200 bg-white p-1.5 shadow-lift"
      >
        {results.map((campus, index) => (
          <li
            key={campus.slug}
            id={optionId(index)}
            role="option"
            aria-selected={index === state.active}
            // Keep the focus in the field: a click chooses, it does not blur first.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(campus)}
            className={cx(
              'flex cursor-pointer flex-col gap-0.5 rounded-xl px-3 py-2.5',
              index === state.active ? 'bg-brand-50 text-brand-900' : 'text-slate-900 hover:bg-slate-50',
            )}
          >
            <span className="font-semibold">{campus.name}</span>
            <span className="text-sm break-words text-slate-600">{addressList(campus.emailDomains)}</span>
            {campus.universitySignIn && (
              <span className="text-sm font-semibold text-brand-700">
                {campus.universitySignIn === 'only' ? SSO_MESSAGES.pickerOnly : SSO_MESSAGES.pickerOffered}
              </span>
            )}
          </li>
        ))}
      </ul>
      {showEmpty && (
        <div className="absolute inset-x-0 z-20 mt-2 rounded-2xl border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700 shadow-lift">
          <p className="font-semibold text-slate-900">No campus matches “{state.text.trim()}”.</p>
          <p className="mt-0.5">If yours is not listed, it has not joined Campus Market yet.</p>
        </div>
      )}
      {hint && (
        <p id={hintId} className="mt-1.5 text-sm text-slate-600">
          {hint}
        </p>
      )}
      <p aria-live="polite" className="sr-only">
        {state.open ? listStatus(results.length, query) : ''}
      </p>
    </div>
  );
}
