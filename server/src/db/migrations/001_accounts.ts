import type { Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

export function accountsMigration(db: Db): Migration {
  return {
    async up(k) {
      await withIdColumn(k.schema.createTable('users'), db.dialect)
        .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
        .addColumn('first_name', 'varchar(60)', (c) => c.notNull())
        .addColumn('last_name', 'varchar(60)', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      // One live code per account and purpose: a new code replaces the old (design §4).
      await withIdColumn(k.schema.createTable('codes'), db.dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', epochMs, (c) => c.notNull())
        .addColumn('tries_left', 'integer', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addUniqueConstraint('codes_user_purpose_unique', ['user_id', 'purpose'])
        .execute();
    },
    async down(k) {
      await k.schema.dropTable('codes').execute();
      await k.schema.dropTable('users').execute();
    },
  };
}
