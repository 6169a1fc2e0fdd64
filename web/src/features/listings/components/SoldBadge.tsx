import { cx } from '../../../ui/cx';

/** "Sold" ribbon on a card or the detail view. */
export function SoldBadge({ className }: { className?: string }) {
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-full bg-slate-900/85 px-2.5 py-0.5 text-xs font-bold tracking-wide text-white uppercase',
        className,
      )}
    >
      Sold
    </span>
  );
}
