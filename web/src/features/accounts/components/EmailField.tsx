import { TextField, type TextFieldProps } from '../../../ui/TextField';

/** A university e-mail input: the keyboard, autofill and no autocorrect every account screen wants. */
export function EmailField(props: TextFieldProps) {
  return (
    <TextField
      name="email"
      type="email"
      inputMode="email"
      autoComplete="email"
      autoCapitalize="none"
      spellCheck={false}
      {...props}
    />
  );
}
