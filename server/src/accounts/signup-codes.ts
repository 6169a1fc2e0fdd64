import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, SignupCodesTable } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;
export type SignupCodeRow = Selectable<SignupCodesTable>;

/** Marks the code that verified the address, so a second tap on Verify with it still answers 200. */
export const USED = -1;

/** Each sign-up's code carries that sign-up's password and names. */
export async function insertSignupCode(
  db: Executor,
  row: {
    userId: number;
    codeHash: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    expiresAt: number;
    triesLeft: number;
    now: number;
  },
): Promise<void> {
  // Expired codes of this address go first; they can never verify anything again.
  await db
    .deleteFrom('signup_codes')
    .where('user_id', '=', row.userId)
    .where('expires_at', '<=', row.now)
    .execute();
  await db
    .insertInto('signup_codes')
    .values({
      user_id: row.userId,
      code_hash: row.codeHash,
      password_hash: row.passwordHash,
      first_name: row.firstName,
      last_name: row.lastName,
      expires_at: row.expiresAt,
      tries_left: row.triesLeft,
      created_at: row.now,
    })
    .execute();
}

export function liveSignupCodes(db: Executor, userId: number, now: number): Promise<SignupCodeRow[]> {
  return db
    .selectFrom('signup_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();
}

export function newestSignupCode(db: Executor, userId: number): Promise<SignupCodeRow | undefined> {
  return db
    .selectFrom('signup_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('tries_left', '<>', USED)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A resent code replaces the code of that sign-up (same password and names). */
export async function refreshSignupCode(
  db: Executor,
  id: number,
  code: { codeHash: string; expiresAt: number; triesLeft: number },
): Promise<void> {
  await db
    .updateTable('signup_codes')
    .set({ code_hash: code.codeHash, expires_at: code.expiresAt, tries_left: code.triesLeft })
    .where('id', '=', id)
    .execute();
}

/** One wrong code costs a try of every pending code of the address; a code out of tries is gone. */
export async function spendTry(db: Executor, userId: number): Promise<void> {
  await db
    .updateTable('signup_codes')
    .set((eb) => ({ tries_left: eb('tries_left', '-', 1) }))
    .where('user_id', '=', userId)
    .where('tries_left', '>', 0)
    .execute();
  await db.deleteFrom('signup_codes').where('user_id', '=', userId).where('tries_left', '=', 0).execute();
}

/**
 * The verifying code activates its own sign-up's password and names; every other code of the
 * address dies. Returns false when a concurrent verify already used this code or verified the user.
 */
export async function activateSignup(
  db: Transaction<Database>,
  code: SignupCodeRow,
  now: number = Date.now(),
): Promise<boolean> {
  const updated = await db
    .updateTable('users')
    .set({
      password_hash: code.password_hash,
      first_name: code.first_name,
      last_name: code.last_name,
      verified: 1,
      // Student status starts (or is renewed) now (safety: STUDENT_STATUS_MONTHS).
      verified_at: now,
    })
    .where('id', '=', code.user_id)
    .where('verified', '=', 0)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  await db
    .deleteFrom('signup_codes')
    .where('user_id', '=', code.user_id)
    .where('id', '<>', code.id)
    .execute();
  // Keep the winning code (no secrets besides its HMAC) so a double tap on Verify answers 200.
  await db
    .updateTable('signup_codes')
    .set({ tries_left: USED, password_hash: '' })
    .where('id', '=', code.id)
    .execute();
  return true;
}
