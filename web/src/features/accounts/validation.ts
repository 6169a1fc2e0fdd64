import { LIMITS, MESSAGES } from '@campus/contract';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailError(email: string): string | null {
  const value = email.trim();
  if (!value) return MESSAGES.emailRequired;
  if (value.length > LIMITS.emailMax || !EMAIL_PATTERN.test(value)) return MESSAGES.emailInvalid;
  return null;
}

/** A 6-digit e-mailed code (the client sends it as a number). */
export function codeError(code: string): string | null {
  const value = code.trim();
  if (!value) return MESSAGES.codeRequired;
  if (!/^\d{6}$/.test(value)) return MESSAGES.codeInvalidFormat;
  return null;
}

/** Keeps only digits (pasted codes often carry spaces). */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '').slice(0, LIMITS.codeDigits);
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Focuses the first invalid field or form alert after the errors render. */
export function focusFirstError(form: HTMLFormElement | null): void {
  window.requestAnimationFrame(() => {
    form?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]')?.focus();
  });
}
