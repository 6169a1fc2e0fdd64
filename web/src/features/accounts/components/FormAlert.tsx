import { forwardRef, type ReactNode } from 'react';
import { cx } from '../../../ui/cx';
import { AlertIcon, InfoIcon } from '../../../ui/icons';

/** A message about the whole form (role=alert for errors so it is announced). */
export const FormAlert = forwardRef<
  HTMLDivElement,
  { tone?: 'error' | 'info'; children: ReactNode; className?: string }
>(function FormAlert({ tone = 'error', children, className }, ref) {
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role={tone === 'error' ? 'alert' : 'status'}
      className={cx(
        'flex items-start gap-2.5 rounded-xl border px-4 py-3 text-sm outline-none',
        tone === 'error'
          ? 'border-red-200 bg-red-50 text-red-800'
          : 'border-brand-200 bg-brand-50 text-brand-900',
        className,
      )}
    >
      {tone === 'error' ? (
        <AlertIcon size={18} className="mt-0.5 shrink-0" />
      ) : (
        <InfoIcon size={18} className="mt-0.5 shrink-0" />
      )}
      <div className="min-w-0">{children}</div>
    </div>
  );
});
