import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The one writer of the sso tables (migration 021). Every "use once" is a single DELETE … RETURNING
 * and every "remember once" a single INSERT … ON CONFLICT DO NOTHING, so two processes racing for
 * the same row cannot both win, on SQLite and PostgreSQL alike. Keys and codes are stored as
 * hashes: a copy of the database holds nothing that could finish a sign-in.
 */

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export interface PendingRequest {
  browserHash: string;
  pending: Record<string, string>;
  expiresAt: number;
}

export async function savePendingRequest(
  db: Kysely<Database>,
  row: { key: string; browserHash: string; pending: Record<string, string>; expiresAt: number; now: number },
): Promise<void> {
  await db
    .insertInto('sso_requests')
    .values({
      key_hash: sha256(row.key),
      browser_hash: row.browserHash,
      pending: JSON.stringify(row.pending),
      expires_at: row.expiresAt,
      created_at: row.now,
    })
    .execute();
}

/** Takes the pending request of `key` (of the campus in scope) out: only one caller ever gets it. */
export async function takePendingRequest(
  db: Kysely<Database>,
  key: string,
): Promise<PendingRequest | undefined> {
  const row = await db
    .deleteFrom('sso_requests')
    .where('key_hash', '=', sha256(key))
    .returning(['browser_hash', 'pending', 'expires_at'])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    browserHash: row.browser_hash,
    pending: JSON.parse(row.pending) as Record<string, string>,
    expiresAt: Number(row.expires_at),
  };
}

export async function saveExchangeCode(
  db: Kysely<Database>,
  row: { code: string; userId: number; expiresAt: number; now: number },
): Promise<void> {
  await db
    .insertInto('sso_exchange_codes')
    .values({
      code_hash: sha256(row.code),
      user_id: row.userId,
      expires_at: row.expiresAt,
      created_at: row.now,
    })
    .execute();
}

/**
 * Takes an exchange code out (whatever its age: an expired one is gone too) and answers its user
 * and campus. Called across campuses: the code is all the request carries.
 */
export async function takeExchangeCode(
  db: Kysely<Database>,
  code: string,
): Promise<{ userId: number; campusId: number; expiresAt: number } | undefined> {
  const row = await db
    .deleteFrom('sso_exchange_codes')
    .where('code_hash', '=', sha256(code))
    .returning(['user_id', 'campus_id', 'expires_at'])
    .executeTakeFirst();
  if (!row) return undefined;
  return { userId: row.user_id, campusId: Number(row.campus_id), expiresAt: Number(row.expires_at) };
}

/** SAML replay cache: true when this assertion id was not seen before on the campus in scope. */
export async function rememberAssertion(
  db: Kysely<Database>,
  row: { assertionId: string; expiresAt: number; now: number },
): Promise<boolean> {
  const inserted = await db
    .insertInto('sso_assertions')
    .values({ assertion_id: row.assertionId, expires_at: row.expiresAt, created_at: row.now })
    .onConflict((oc) => oc.columns(['campus_id', 'assertion_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Drops the campus's expired rows (the sweep job); an expired row can never be used again anyway. */
export async function deleteExpired(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('sso_requests').where('expires_at', '<=', now).execute();
  await db.deleteFrom('sso_exchange_codes').where('expires_at', '<=', now).execute();
  await db.deleteFrom('sso_assertions').where('expires_at', '<=', now).execute();
}
