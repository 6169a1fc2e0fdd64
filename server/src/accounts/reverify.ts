import { LIMITS } from '@campus/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { enqueueCodeMail } from './code-mail.js';
import { generateCode, hashCode } from './codes.js';
import { insertSignupCode } from './signup-codes.js';
import type { UserRow } from './store.js';

/**
 * Starts verification over for a verified account (safety's student-status lapse), in the caller's
 * transaction: the account becomes unverified, a fresh sign-up code is stored and mailed to the
 * university address, and the usual POST /public/verify renews the status. The code keeps the
 * password and names the student already has. Only the first caller flips the account; a second
 * finds it unverified and changes nothing (returns false).
 */
export async function restartVerification(
  ctx: AppContext,
  trx: Transaction<Database>,
  user: UserRow,
): Promise<boolean> {
  const code = generateCode();
  const now = ctx.clock();
  const flipped = await trx
    .updateTable('users')
    .set({ verified: 0 })
    .where('id', '=', user.id)
    .where('verified', '=', 1)
    .executeTakeFirst();
  if (Number(flipped.numUpdatedRows) === 0) return false;
  await insertSignupCode(trx, {
    userId: user.id,
    codeHash: hashCode(code, ctx.config.jwtSecret),
    passwordHash: user.password_hash,
    firstName: user.first_name,
    lastName: user.last_name,
    expiresAt: now + LIMITS.codeTtlMinutes * 60_000,
    triesLeft: LIMITS.codeMaxTries,
    now,
  });
  await enqueueCodeMail(ctx, trx, { to: user.email, firstName: user.first_name, code, kind: 'verify' });
  return true;
}
