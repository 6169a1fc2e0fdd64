import { CONDITION_LABELS, type Condition } from '@campus/contract';
import { cx } from '../../../ui/cx';

/** The item's condition as a small chip ("Like new"); nothing when the listing has none. */
export function ConditionChip({ condition, className }: { condition: Condition | null; className?: string }) {
  if (!condition) return null;
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-full border border-emerald-200 bg-emerald-50 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-emerald-800',
        className,
      )}
    >
      <span className="sr-only">Condition: </span>
      {CONDITION_LABELS[condition] ?? condition}
    </span>
  );
}
