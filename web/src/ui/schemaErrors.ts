/** What the forms need of a contract (Zod) schema: a safe parse whose issues carry the message. */
interface CheckingSchema {
  safeParse(
    value: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: readonly { message: string; path: readonly PropertyKey[] }[] } };
}

/** The first message the contract's schema gives for one value, or null when it passes. */
export function firstError(schema: CheckingSchema, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/** The first message per top-level field of an object schema; empty when everything passes. */
export function fieldErrors<F extends string>(
  schema: CheckingSchema,
  value: unknown,
): Partial<Record<F, string>> {
  const result = schema.safeParse(value);
  const found: Partial<Record<F, string>> = {};
  if (result.success) return found;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in found)) found[field as F] = issue.message;
  }
  return found;
}
