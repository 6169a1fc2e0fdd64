import { cx } from './cx';

export interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  /** Announced to screen readers; pass null when a surrounding element already announces it. */
  label?: string | null;
  className?: string;
}

const SIZES = { sm: 'h-4 w-4 border-2', md: 'h-6 w-6 border-2', lg: 'h-10 w-10 border-[3px]' } as const;

export function Spinner({ size = 'md', label = 'Loading…', className }: SpinnerProps) {
  return (
    <span role={label ? 'status' : undefined} className={cx('inline-flex items-center', className)}>
      <span
        aria-hidden="true"
        className={cx('animate-spin rounded-full border-current border-r-transparent', SIZES[size])}
      />
      {label && <span className="sr-only">{label}</span>}
    </span>
  );
}

/** Centered spinner for a whole page or route while it loads. */
export function PageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center text-brand-700">
      <Spinner size="lg" label={label} />
    </div>
  );
}
