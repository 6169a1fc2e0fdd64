import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';
import { APP_ROLE, campusOwnTable } from './015_campuses.js';

const TABLES = ['sso_requests', 'sso_exchange_codes', 'sso_assertions'] as const;

/**
 * University sign-in (features.md §G), all written by the sso module and all campus owned (015's
 * trigger on SQLite, row-level security on PostgreSQL):
 * - `sso_requests`: a sign-in sent to the university, waiting for its callback. Keyed by the hash
 *   of its OIDC `state` / SAML `RelayState`; `pending` holds what the callback is checked against
 *   (nonce, PKCE verifier, AuthnRequest id); `browser_hash` ties it to the browser that started it.
 *   Single use (deleted when the callback comes), ten minutes.
 * - `sso_exchange_codes`: the one-time code of /sso/done#code=…, as a hash; 60 s, single use.
 * - `sso_assertions`: SAML assertion ids already accepted, until they expire (the replay cache:
 *   the unique key makes "insert if absent" atomic across processes).
 * No table links a user to a university identity: the university vouches for an address of its
 * own domains, and users.email already names the account (docs/decisions.md "University sign-in").
 */
export function universitySignInMigration(db: Db): Migration {
  const dialect = db.dialect;
  const withCampus = <T extends string>(t: CreateTableBuilder<T, 'id'>) =>
    dialect === 'postgres'
      ? t.addColumn('campus_id', 'integer', (c) => c.notNull().references('campuses.id'))
      : t.addColumn('campus_id', 'integer', (c) => c.notNull().defaultTo(0));
  return {
    async up(k: Kysely<unknown>) {
      await withCampus(withIdColumn(k.schema.createTable('sso_requests'), dialect))
        .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('pending', 'text', (c) => c.notNull())
        .addColumn('expires_at', epochMs, (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await withCampus(withIdColumn(k.schema.createTable('sso_exchange_codes'), dialect))
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', epochMs, (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await withCampus(withIdColumn(k.schema.createTable('sso_assertions'), dialect))
        .addColumn('assertion_id', 'varchar(256)', (c) => c.notNull())
        .addColumn('expires_at', epochMs, (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addUniqueConstraint('sso_assertions_once', ['campus_id', 'assertion_id'])
        .execute();
      for (const table of TABLES) {
        // The sweep deletes expired rows of one campus.
        await k.schema
          .createIndex(`${table}_campus_expiry`)
          .on(table)
          .columns(['campus_id', 'expires_at'])
          .execute();
        await campusOwnTable(k, dialect, table);
        if (dialect === 'postgres') {
          // The app's role (015) reads and writes every table; granted here too in case this
          // database's default privileges were set by another role.
          await sql
            .raw(
              `do $$ begin
  if exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
    grant select, insert, update, delete on ${table} to ${APP_ROLE};
  end if;
end $$`,
            )
            .execute(k);
        }
      }
    },
    async down(k: Kysely<unknown>) {
      for (const table of [...TABLES].reverse()) {
        if (dialect !== 'postgres')
          await sql.raw(`drop trigger if exists ${table}_campus_required`).execute(k);
        await k.schema.dropTable(table).execute();
      }
    },
  };
}
