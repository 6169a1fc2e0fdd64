import type { PublicUser, UserInfo } from '@campus/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CodePurpose, Database, UsersTable } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;
export type UserRow = Selectable<UsersTable>;

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Only what authentication needs, for the per-request token check. */
export function findTokenState(db: Executor, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'token_version', 'verified', 'campus_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertUser(
  db: Executor,
  user: { email: string; firstName: string; lastName: string; passwordHash: string; now: number },
): Promise<number> {
  const inserted = await db
    .insertInto('users')
    .values({
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      password_hash: user.passwordHash,
      verified: 0,
      token_version: 0,
      created_at: user.now,
    })
    // Two sign-ups racing for a new address: the second finds the first's row.
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  const existing = await findUserByEmail(db, user.email);
  if (!existing) throw new Error('user vanished during sign-up');
  return existing.id;
}

export async function markVerified(db: Executor, id: number): Promise<void> {
  await db.updateTable('users').set({ verified: 1, verified_at: Date.now() }).where('id', '=', id).execute();
}

/**
 * University sign-in: verified with the student status renewed now, the university's names where
 * it gave them; `dropUnprovenPassword` empties the password of an account whose e-mail sign-up was
 * never verified (an empty hash matches no password: login refuses it as a wrong password).
 */
export async function renewFromUniversity(
  db: Executor,
  id: number,
  change: { firstName: string | null; lastName: string | null; now: number; dropUnprovenPassword: boolean },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      verified: 1,
      verified_at: change.now,
      ...(change.firstName ? { first_name: change.firstName } : {}),
      ...(change.lastName ? { last_name: change.lastName } : {}),
      ...(change.dropUnprovenPassword ? { password_hash: '' } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** A verified account at once, without a sign-up code (the demo seed). */
export async function insertVerifiedUser(
  db: Executor,
  user: { email: string; firstName: string; lastName: string; passwordHash: string; now: number },
): Promise<number> {
  const id = await insertUser(db, user);
  await markVerified(db, id);
  return id;
}

/** Sets a new password and bumps the token version, which revokes every earlier token. */
export async function setPassword(db: Executor, id: number, passwordHash: string): Promise<number> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({ password_hash: passwordHash, verified: 1, token_version: eb('token_version', '+', 1) }))
    .where('id', '=', id)
    .returning('token_version')
    .executeTakeFirstOrThrow();
  return row.token_version;
}

export function findCode(db: Executor, userId: number, purpose: CodePurpose) {
  return db
    .selectFrom('codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

/** A new code replaces the old one for the same account and purpose (call inside a transaction). */
export async function replaceCode(
  db: Executor,
  code: {
    userId: number;
    purpose: CodePurpose;
    codeHash: string;
    expiresAt: number;
    triesLeft: number;
    now: number;
  },
): Promise<void> {
  await db
    .deleteFrom('codes')
    .where('user_id', '=', code.userId)
    .where('purpose', '=', code.purpose)
    .execute();
  await db
    .insertInto('codes')
    .values({
      user_id: code.userId,
      purpose: code.purpose,
      code_hash: code.codeHash,
      expires_at: code.expiresAt,
      tries_left: code.triesLeft,
      created_at: code.now,
    })
    .execute();
}

export async function decrementTries(db: Executor, codeId: number): Promise<void> {
  await db
    .updateTable('codes')
    .set((eb) => ({ tries_left: eb('tries_left', '-', 1) }))
    .where('id', '=', codeId)
    .execute();
}

/** Returns whether this call removed the code, so two racing uses cannot both succeed. */
export async function deleteCode(db: Executor, codeId: number): Promise<boolean> {
  const result = await db.deleteFrom('codes').where('id', '=', codeId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function toUserInfo(row: UserRow): UserInfo {
  return { id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email };
}

export function toPublicUser(row: Pick<UserRow, 'id' | 'first_name' | 'last_name'>): PublicUser {
  return { id: row.id, firstName: row.first_name, lastName: row.last_name };
}
