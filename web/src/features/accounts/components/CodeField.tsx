import { TextField } from '../../../ui/TextField';
import { digitsOnly } from '../validation';

/** The 6-digit e-mailed code field shared by /verify and /resetPass (digits only, one-time-code). */
export function CodeField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (digits: string) => void;
}) {
  return (
    <TextField
      label="Verification code"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={6}
      placeholder="6-digit code"
      value={value}
      onChange={(e) => onChange(digitsOnly(e.target.value))}
      error={error}
      className="text-lg tracking-[0.3em] placeholder:tracking-normal"
    />
  );
}
