import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cx } from './cx';
import { AlertIcon } from './icons';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: string;
  /** Hide the label visually (still read by screen readers). */
  hideLabel?: boolean;
  /** Error text shown under the field; sets aria-invalid. */
  error?: string | null;
  /** Helper text shown under the field. */
  hint?: ReactNode;
  /** Element placed inside the field on the right (e.g. a show/hide button). */
  trailing?: ReactNode;
  containerClassName?: string;
}

export const inputClasses =
  'block h-11 w-full rounded-xl border bg-white px-3.5 text-base text-slate-900 shadow-xs placeholder:text-slate-500 transition-colors focus:outline-none focus-visible:outline-none focus:ring-4 disabled:bg-slate-100 disabled:text-slate-500 sm:text-sm';

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, hideLabel, error, hint, trailing, id, className, containerClassName, type = 'text', ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? `field-${autoId}`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [rest['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div className={cx('space-y-1.5', containerClassName)}>
      <label
        htmlFor={inputId}
        className={cx('block text-sm font-medium text-slate-800', hideLabel && 'sr-only')}
      >
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          type={type}
          aria-invalid={error ? true : undefined}
          {...rest}
          aria-describedby={describedBy}
          className={cx(
            inputClasses,
            error
              ? 'border-red-600 focus:border-red-600 focus:ring-red-100'
              : 'border-slate-300 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-100',
            trailing ? 'pr-12' : undefined,
            className,
          )}
        />
        {trailing && <div className="absolute inset-y-0 right-0 flex items-center pr-1.5">{trailing}</div>}
      </div>
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="flex items-start gap-1.5 text-sm font-medium text-red-700">
          <AlertIcon size={16} className="mt-0.5 shrink-0" />
          <span>{error}</span>
        </p>
      )}
    </div>
  );
});
