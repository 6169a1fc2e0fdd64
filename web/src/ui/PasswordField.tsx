import { forwardRef, useId, useState } from 'react';
import { EyeIcon, EyeOffIcon } from './icons';
import { TextField, type TextFieldProps } from './TextField';

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'trailing'>;

/** Password input with an accessible show/hide toggle (aria-pressed, labelled). */
export const PasswordField = forwardRef<HTMLInputElement, PasswordFieldProps>(function PasswordField(
  { id, label, ...rest },
  ref,
) {
  const [visible, setVisible] = useState(false);
  const autoId = useId();
  const inputId = id ?? `password-${autoId}`;
  return (
    <TextField
      ref={ref}
      id={inputId}
      label={label}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      {...rest}
      trailing={
        <button
          type="button"
          aria-pressed={visible}
          aria-controls={inputId}
          onClick={() => setVisible((v) => !v)}
          className="inline-flex h-9 w-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
          {/* Name via content, not aria-label, so getByLabel('Password') finds only the input. */}
          <span className="sr-only">{`Show ${label.toLowerCase()}`}</span>
        </button>
      }
    />
  );
});
