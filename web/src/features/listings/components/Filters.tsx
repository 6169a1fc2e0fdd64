import { useId, useRef, useState, type ReactNode } from 'react';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  CONDITION_LABELS,
  CONDITIONS,
  PRICE_BUCKETS,
  SORT_LABELS,
  type Category,
  type Condition,
  type PriceBucketId,
  type Sort,
} from '@campus/contract';
import { Button } from '../../../ui/Button';
import { cx } from '../../../ui/cx';
import { ChevronDownIcon, CloseIcon, FilterIcon } from '../../../ui/icons';

function CheckRow({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: () => void;
  children: ReactNode;
}) {
  return (
    <label className="flex min-h-10 cursor-pointer items-center gap-3 rounded-lg px-2 text-sm text-slate-800 hover:bg-slate-50">
      <input
        type="checkbox"
        checked={checked}
        onChange={onChange}
        className="h-[1.125rem] w-[1.125rem] shrink-0 cursor-pointer rounded accent-brand-700"
      />
      <span className={cx(checked && 'font-semibold text-slate-900')}>{children}</span>
    </label>
  );
}

export function CategoryFilter({
  selected,
  onToggle,
}: {
  selected: readonly Category[];
  onToggle: (category: Category) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        Category
      </legend>
      <div className="space-y-0.5">
        {CATEGORIES.map((category) => (
          <CheckRow key={category} checked={selected.includes(category)} onChange={() => onToggle(category)}>
            {CATEGORY_LABELS[category]}
          </CheckRow>
        ))}
      </div>
    </fieldset>
  );
}

/** "Free items only" (features.md §H): giveaways that take claims instead of offers. */
export function FreeFilter({ checked, onToggle }: { checked: boolean; onToggle: () => void }) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Free</legend>
      <CheckRow checked={checked} onChange={onToggle}>
        Free items only
      </CheckRow>
    </fieldset>
  );
}

/** Condition checkboxes (features.md §B): several may be chosen. */
export function ConditionFilter({
  selected,
  onToggle,
}: {
  selected: readonly Condition[];
  onToggle: (condition: Condition) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        Condition
      </legend>
      <div className="space-y-0.5">
        {CONDITIONS.map((condition) => (
          <CheckRow
            key={condition}
            checked={selected.includes(condition)}
            onChange={() => onToggle(condition)}
          >
            {CONDITION_LABELS[condition]}
          </CheckRow>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The order of results (features.md §B "Sorting"). "Best match" is offered only with a search
 * query; browse starts at "Newest".
 */
export function SortSelect({
  value,
  onChange,
  withRelevance,
  className,
}: {
  value: Sort;
  onChange: (sort: Sort) => void;
  withRelevance: boolean;
  className?: string;
}) {
  const id = useId();
  const options = (Object.keys(SORT_LABELS) as Sort[]).filter((s) => withRelevance || s !== 'relevance');
  return (
    <div className={cx('flex items-center gap-2', className)}>
      <label htmlFor={id} className="text-sm font-medium whitespace-nowrap text-slate-700">
        Sort by
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value as Sort)}
          className="h-10 appearance-none rounded-xl border border-slate-300 bg-white pr-9 pl-3 text-sm font-semibold text-slate-900 shadow-sm hover:border-slate-400 focus:border-brand-600 focus:ring-4 focus:ring-brand-100 focus:outline-none"
        >
          {options.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
        <ChevronDownIcon
          size={16}
          className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-slate-500"
        />
      </div>
    </div>
  );
}

/**
 * Price-bucket checkboxes (spec §9). `single`: checking one unchecks the others (the all-listings
 * sidebar); `multi`: several may be chosen (the category page; the range spans them).
 */
export function PriceFilter({
  selected,
  onToggle,
  mode,
}: {
  selected: readonly PriceBucketId[];
  onToggle: (id: PriceBucketId) => void;
  mode: 'single' | 'multi';
}) {
  const hintId = useId();
  return (
    <fieldset aria-describedby={hintId}>
      <legend className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Price</legend>
      <p id={hintId} className="sr-only">
        {mode === 'single' ? 'Choose one price range.' : 'Choose one or more price ranges.'}
      </p>
      <div className="space-y-0.5">
        {PRICE_BUCKETS.map((bucket) => (
          <CheckRow
            key={bucket.id}
            checked={selected.includes(bucket.id)}
            onChange={() => onToggle(bucket.id)}
          >
            {bucket.label}
          </CheckRow>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The filter panel: a sidebar on large screens, a toggle button with a collapsible panel on
 * small and medium ones (spec §2). One panel element serves both, so labels stay unique.
 */
export function FilterPanel({
  activeCount,
  onClear,
  children,
  title = 'Filters',
  resultCount,
  moreResults = false,
}: {
  activeCount: number;
  onClear?: () => void;
  children: ReactNode;
  title?: string;
  /** Listings shown now (undefined while loading): the phone panel's "Show N results" button. */
  resultCount?: number;
  /** More pages exist beyond `resultCount` ("Show 24+ results"). */
  moreResults?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  /** Phones: close the panel and bring the results (updated out of sight) into view. */
  function showResults() {
    setOpen(false);
    const panel = toggleRef.current?.closest('aside');
    const results = panel?.nextElementSibling;
    if (results instanceof HTMLElement) {
      results.scrollIntoView({ block: 'start' });
      results.setAttribute('tabindex', '-1');
      results.focus({ preventScroll: true });
    }
  }
  const panelId = useId();
  const headingId = useId();
  return (
    <div className="lg:sticky lg:top-24">
      <Button
        ref={toggleRef}
        variant="secondary"
        className="lg:hidden"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
        leadingIcon={<FilterIcon size={18} />}
      >
        {open ? 'Hide filters' : 'Show filters'}
        {activeCount > 0 && (
          <span className="inline-flex min-w-5 items-center justify-center rounded-full bg-brand-700 px-1.5 text-xs leading-5 text-white">
            {activeCount}
            <span className="sr-only"> active</span>
          </span>
        )}
        <ChevronDownIcon size={16} className={cx('transition-transform', open && 'rotate-180')} />
      </Button>
      <div
        id={panelId}
        role="group"
        aria-labelledby={headingId}
        className={cx(
          'mt-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-card lg:mt-0 lg:block',
          open ? 'block' : 'hidden',
        )}
      >
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-slate-900">
            <FilterIcon size={18} className="text-brand-700" />
            {title}
          </h2>
          {onClear && activeCount > 0 && (
            <button
              type="button"
              onClick={onClear}
              className="rounded-lg px-2 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50 hover:text-brand-800"
            >
              Clear all
            </button>
          )}
        </div>
        <div className="space-y-5">{children}</div>
        {/* on phones results update below a tall panel; say how many and go there. */}
        <div className="sticky bottom-[var(--tab-bar-space)] -mx-4 -mb-4 mt-4 rounded-b-2xl border-t border-slate-200 bg-white p-3 lg:hidden">
          <Button fullWidth onClick={showResults}>
            {resultCount === undefined
              ? 'Show results'
              : `Show ${resultCount}${moreResults ? '+' : ''} ${resultCount === 1 && !moreResults ? 'result' : 'results'}`}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** Removable chip showing an active filter (search text, category, price). */
export function FilterChip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onRemove}
        className="inline-flex h-8 items-center gap-1.5 rounded-full border border-brand-200 bg-brand-50 pr-2 pl-3 text-sm font-medium text-brand-800 hover:border-brand-300 hover:bg-brand-100"
      >
        {label}
        <CloseIcon size={14} aria-hidden="true" />
        <span className="sr-only">(remove filter)</span>
      </button>
    </li>
  );
}
