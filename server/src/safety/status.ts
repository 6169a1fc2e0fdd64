import { ERROR_CODES, LIMITS, SAFETY_MESSAGES, suspendedMessage } from '@campus/contract';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { generateCode, hashCode } from '../accounts/codes.js';
import * as signupCodes from '../accounts/signup-codes.js';
import type { UserRow } from '../accounts/store.js';
import { enqueueMail } from '../mail/jobs.js';
import { verificationMail } from '../mail/templates.js';

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
 *   usual POST /public/verify renews the status (signup-codes.ts sets verified_at).
 */
export async function checkLogin(ctx: AppContext, user: UserRow): Promise<void> {
  const now = ctx.clock();
  if (isSuspended(user, now)) {
    const until = user.suspended_until === null ? null : new Date(Number(user.suspended_until)).toISOString();
    throw new HttpError(403, suspendedMessage(until, user.suspension_reason ?? ''), ERROR_CODES.suspended);
  }
  const verifiedAt = user.verified_at === null ? Number(user.created_at) : Number(user.verified_at);
  if (statusEndsAt(verifiedAt, ctx.config.studentStatusMonths) > now) return;
  const code = generateCode();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    // Only the first login after the lapse flips the account; a second one finds it unverified.
    const flipped = await trx
      .updateTable('users')
      .set({ verified: 0 })
      .where('id', '=', user.id)
      .where('verified', '=', 1)
      .executeTakeFirst();
    if (Number(flipped.numUpdatedRows) === 0) return;
    await signupCodes.insertSignupCode(trx, {
      userId: user.id,
      codeHash: hashCode(code, ctx.config.jwtSecret),
      // Verifying keeps the password and names the student already has.
      passwordHash: user.password_hash,
      firstName: user.first_name,
      lastName: user.last_name,
      expiresAt: now + LIMITS.codeTtlMinutes * 60_000,
      triesLeft: LIMITS.codeMaxTries,
      now,
    });
    await enqueueMail(
      ctx,
      trx,
      verificationMail({
        to: user.email,
        firstName: user.first_name,
        code,
        campusName: ctx.config.campusName,
        publicUrl: ctx.config.publicUrl,
      }),
    );
  });
  ctx.jobs.kick();
  throw new HttpError(403, SAFETY_MESSAGES.statusLapsed, ERROR_CODES.unverified);
}
