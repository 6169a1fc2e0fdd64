import type { ChangeEvent } from 'react';
import { cx } from './cx';
import { AlertIcon, ChevronDownIcon } from './icons';
import { inputClasses } from './TextField';

/** The red line under a field that did not pass; nothing when there is no message. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="flex items-start gap-1.5 text-sm font-medium text-red-700">
      <AlertIcon size={16} className="mt-0.5 shrink-0" />
      <span>{message}</span>
    </p>
  );
}

/** The border of a field with or without an error. */
export function fieldStateClasses(error: string | undefined): string {
  return error
    ? 'border-red-600 focus:border-red-600 focus:ring-red-100'
    : 'border-slate-300 hover:border-slate-400 focus:border-brand-600 focus:ring-brand-100';
}

/** Pasted or dropped text (not typing) that went past the limit was cut: say so. */
export function limitText(e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>, max: number) {
  const value = e.target.value;
  if (value.length <= max) return { value, cut: false };
  const inputType = (e.nativeEvent as InputEvent).inputType ?? '';
  // Typing adds one character at a time; more than one over the limit was pasted or dropped.
  return { value: value.slice(0, max), cut: inputType.startsWith('insertFrom') || value.length - max > 1 };
}

/** A labelled native select styled like TextField, with a placeholder option, hint and error. */
export function SelectField({
  id,
  label,
  name,
  value,
  onChange,
  error,
  placeholder,
  options,
  hint,
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  placeholder: { label: string; disabled: boolean };
  options: readonly { value: string; label: string }[];
  hint?: string;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={cx(hint && `${id}-hint`, error && `${id}-error`) || undefined}
          className={cx(
            inputClasses,
            'appearance-none pr-10',
            value === '' && 'text-slate-500',
            fieldStateClasses(error),
          )}
        >
          <option value="" disabled={placeholder.disabled}>
            {placeholder.label}
          </option>
          {options.map((o) => (
            <option key={o.value} value={o.value} className="text-slate-900">
              {o.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon
          size={18}
          className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-slate-500"
        />
      </div>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
