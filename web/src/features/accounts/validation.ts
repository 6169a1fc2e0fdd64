import { codeSchema, emailSchema, LIMITS } from '@campus/contract';
import { firstError } from '../../ui/schemaErrors';

/** The contract's e-mail rule and messages (required, at most 254 characters, an address). */
export function emailError(email: string): string | null {
  return firstError(emailSchema, email);
}

/** A 6-digit e-mailed code (the client sends it as a number): the contract's rule and messages. */
export function codeError(code: string): string | null {
  return firstError(codeSchema, code.trim() === '' ? undefined : code);
}

/** Keeps only digits (pasted codes often carry spaces). */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '').slice(0, LIMITS.codeDigits);
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Focuses the first invalid field or form alert once the errors render. Errors set after a request
 * (the server's reason) render when React gets to them, which on a busy phone can be after the
 * next frame: look again for a few frames (about half a second) until one is there.
 */
export function focusFirstError(form: HTMLFormElement | null, frames = 30): void {
  window.requestAnimationFrame(() => {
    const target = form?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]');
    if (target) target.focus();
    else if (frames > 1 && form?.isConnected) focusFirstError(form, frames - 1);
  });
}
