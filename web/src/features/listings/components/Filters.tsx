import { useId, useState, type ReactNode } from 'react';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  PRICE_BUCKETS,
  type Category,
  type PriceBucketId,
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
}: {
  activeCount: number;
  onClear?: () => void;
  children: ReactNode;
  title?: string;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const headingId = useId();
  return (
    <div className="lg:sticky lg:top-24">
      <Button
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
