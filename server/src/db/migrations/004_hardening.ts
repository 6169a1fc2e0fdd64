import type { Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

/**
 * Accounts and chat against abuse:
 * - `jobs`: the durable job queue (server/src/jobs/), stored in the app's own database so a job is
 *   enqueued in the same transaction as the change that causes it.
 * - `signup_codes`: each verification code carries the password and names of the sign-up that sent
 *   it, so a later sign-up for the same unverified address cannot replace the first one's password.
 */
export function hardeningMigration(db: Db): Migration {
  return {
    async up(k) {
      await withIdColumn(k.schema.createTable('jobs'), db.dialect)
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('run_at', epochMs, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('locked_until', epochMs)
        .addColumn('locked_by', 'varchar(64)')
        .addColumn('last_error', 'text')
        // Set when the last attempt failed: the row stays for an operator, never runs again.
        .addColumn('failed_at', epochMs)
        // Unique while the job is pending or running; cleared when it fails for good, gone when done.
        .addColumn('key', 'varchar(200)', (c) => c.unique())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema.createIndex('jobs_due').on('jobs').columns(['failed_at', 'run_at']).execute();

      await withIdColumn(k.schema.createTable('signup_codes'), db.dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('first_name', 'varchar(60)', (c) => c.notNull())
        .addColumn('last_name', 'varchar(60)', (c) => c.notNull())
        .addColumn('expires_at', epochMs, (c) => c.notNull())
        .addColumn('tries_left', 'integer', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema.createIndex('signup_codes_user').on('signup_codes').column('user_id').execute();
    },
    async down(k) {
      await k.schema.dropTable('signup_codes').execute();
      await k.schema.dropTable('jobs').execute();
    },
  };
}
