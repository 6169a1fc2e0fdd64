import type { ReactNode } from 'react';
import { cx } from './cx';

export interface PageContainerProps {
  children: ReactNode;
  /** Content width: narrow forms, default pages, wide grids. */
  width?: 'narrow' | 'default' | 'wide' | 'full';
  className?: string;
}

const WIDTHS = { narrow: 'max-w-md', default: 'max-w-5xl', wide: 'max-w-7xl', full: 'max-w-none' } as const;

/** The page's `<main>` landmark (target of the skip link) with consistent padding and width. */
export function PageContainer({ children, width = 'wide', className }: PageContainerProps) {
  return (
    <main
      id="main"
      tabIndex={-1}
      className={cx(
        'mx-auto w-full px-4 py-6 outline-none sm:px-6 sm:py-8 lg:px-8',
        WIDTHS[width],
        className,
      )}
    >
      {children}
    </main>
  );
}

/** Page title row: one h1, optional description and actions. */
export function PageHeader({
  title,
  description,
  actions,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cx('mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {description && <p className="mt-1.5 text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
