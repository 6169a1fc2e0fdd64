import type { ReactNode } from 'react';
import { cx } from './cx';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  className?: string;
  /** Heading level of the title (default h2; 1 when the empty state is the whole page). */
  headingLevel?: 1 | 2 | 3;
}

export function EmptyState({
  title,
  description,
  icon,
  action,
  className,
  headingLevel = 2,
}: EmptyStateProps) {
  const Heading = headingLevel === 1 ? 'h1' : headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div
      className={cx(
        'flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white/60 px-6 py-12 text-center',
        className,
      )}
    >
      {icon && (
        <div className="mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          {icon}
        </div>
      )}
      <Heading className="max-w-md text-base font-semibold text-slate-900">{title}</Heading>
      {description && <div className="mt-2 max-w-md text-sm text-slate-600">{description}</div>}
      {action && <div className="mt-6">{action}</div>}
    </div>
  );
}
