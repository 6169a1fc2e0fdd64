import type { ReactNode } from 'react';
import { MESSAGES } from '@campus/contract';
import { Button } from './Button';
import { cx } from './cx';

export interface ErrorStateProps {
  /** What could not be done, in a student's words. */
  title: string;
  description?: ReactNode;
  onRetry: () => void;
  className?: string;
}

/**
 * A load failure: only the error and "Try again". Never dressed as an empty
 * state, so a student does not read "you have no listings" when the list simply did not load.
 */
export function ErrorState({ title, description, onRetry, className }: ErrorStateProps) {
  return (
    <div
      role="alert"
      className={cx(
        'flex flex-col items-center rounded-2xl border border-red-200 bg-red-50 px-6 py-10 text-center',
        className,
      )}
    >
      <p className="max-w-md text-base font-semibold text-red-900">{title}</p>
      {description && <div className="mt-2 max-w-md text-sm text-red-900">{description}</div>}
      <Button variant="secondary" className="mt-5" onClick={onRetry}>
        {MESSAGES.tryAgain}
      </Button>
    </div>
  );
}
