/** Reads `email` from navigation state (verify → login prefill, signup → verify). */
export function emailFromState(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const email: unknown = (state as { email?: unknown }).email;
  return typeof email === 'string' && email.trim() !== '' ? email : null;
}
