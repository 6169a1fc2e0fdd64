import { ERROR_CODES, SAFETY_MESSAGES, suspendedMessage } from '@campus/contract';
import { restartVerification, type UserRow } from '../accounts/index.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';

/** The end of a student status verified at `verifiedAt` (calendar months, UTC). */
export function statusEndsAt(verifiedAt: number, months: number): number {
  const d = new Date(verifiedAt);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime();
}

export function isSuspended(user: Pick<UserRow, 'suspended_at' | 'suspended_until'>, now: number): boolean {
  return user.suspended_at !== null && (user.suspended_until === null || Number(user.suspended_until) > now);
}

/**
 * Safety's checks on a login whose password was right (features.md §C), before a token is issued:
 * - a suspended student gets 403 SUSPENDED saying until when and why;
 * - a student whose status lapsed (STUDENT_STATUS_MONTHS after the last verification) becomes
 *   unverified, is e-mailed a fresh code at the university address, and gets 403 UNVERIFIED; the
 *   usual POST /public/verify renews the status (accounts' restartVerification).
 * Accounts' login calls this through the check it is given at construction (app.ts wires it), so
 * accounts never imports safety.
 */
export async function checkLogin(ctx: AppContext, user: UserRow): Promise<void> {
  const now = ctx.clock();
  if (isSuspended(user, now)) {
    const until = user.suspended_until === null ? null : new Date(Number(user.suspended_until)).toISOString();
    throw new HttpError(403, suspendedMessage(until, user.suspension_reason ?? ''), ERROR_CODES.suspended);
  }
  const verifiedAt = user.verified_at === null ? Number(user.created_at) : Number(user.verified_at);
  if (statusEndsAt(verifiedAt, ctx.config.studentStatusMonths) > now) return;
  // Only the first login after the lapse flips the account; a second one finds it unverified.
  await ctx.db.kysely.transaction().execute((trx) => restartVerification(ctx, trx, user));
  ctx.jobs.kick();
  throw new HttpError(403, SAFETY_MESSAGES.statusLapsed, ERROR_CODES.unverified);
}
