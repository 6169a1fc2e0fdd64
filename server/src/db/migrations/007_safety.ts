import { sql, type Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

/**
 * Safety (features.md §C): blocks, reports, the append-only moderation audit log, the creation log
 * behind the daily caps, and the columns for listing moderation, suspension, student status,
 * account deletion and anti-scam flags.
 */
export function safetyMigration(db: Db): Migration {
  return {
    async up(k) {
      await k.schema
        .createTable('blocks')
        .addColumn('blocker_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('blocked_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addPrimaryKeyConstraint('blocks_pk', ['blocker_id', 'blocked_id'])
        .execute();
      await k.schema
        .createIndex('blocks_blocked')
        .on('blocks')
        .columns(['blocked_id', 'blocker_id'])
        .execute();

      await withIdColumn(k.schema.createTable('reports'), db.dialect)
        .addColumn('reporter_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('target_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        // The student behind the target (seller, student, sender), kept for grouping and export.
        .addColumn('target_user_id', 'integer')
        .addColumn('reason', 'varchar(16)', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(8)', (c) => c.notNull())
        .addColumn('outcome', 'varchar(16)')
        .addColumn('decided_by', 'integer')
        .addColumn('decided_at', epochMs)
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      // One open report per reporter and target; done ones may be followed by a new one.
      await sql`create unique index reports_open_unique on reports (reporter_id, target_type, target_id)
        where status = 'OPEN'`.execute(k);
      await k.schema
        .createIndex('reports_target')
        .on('reports')
        .columns(['target_type', 'target_id', 'status'])
        .execute();
      await k.schema.createIndex('reports_status').on('reports').columns(['status', 'id']).execute();

      await withIdColumn(k.schema.createTable('mod_audit'), db.dialect)
        .addColumn('moderator_id', 'integer', (c) => c.notNull())
        .addColumn('action', 'varchar(24)', (c) => c.notNull())
        .addColumn('target_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      // Append-only in the database itself: no code path, and no mistaken query, can rewrite history.
      if (db.dialect === 'postgres') {
        await sql`create function mod_audit_append_only() returns trigger language plpgsql as $$
          begin raise exception 'mod_audit is append-only'; end $$`.execute(k);
        await sql`create trigger mod_audit_no_change before update or delete on mod_audit
          for each row execute function mod_audit_append_only()`.execute(k);
      } else {
        await sql`create trigger mod_audit_no_update before update on mod_audit
          begin select raise(abort, 'mod_audit is append-only'); end`.execute(k);
        await sql`create trigger mod_audit_no_delete before delete on mod_audit
          begin select raise(abort, 'mod_audit is append-only'); end`.execute(k);
      }

      // Daily caps count creations, not surviving rows: deleting a listing does not give a post back.
      await k.schema
        .createTable('creation_log')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema
        .createIndex('creation_log_user')
        .on('creation_log')
        .columns(['user_id', 'kind', 'created_at'])
        .execute();

      // null: visible; REPORTED: hidden from browse/search by reports; REMOVED: hidden for everyone.
      await k.schema.alterTable('listings').addColumn('moderation', 'varchar(16)').execute();
      await k.schema.alterTable('listings').addColumn('moderation_reason', 'text').execute();

      await k.schema.alterTable('users').addColumn('suspended_at', epochMs).execute();
      // null with suspended_at set: until further notice.
      await k.schema.alterTable('users').addColumn('suspended_until', epochMs).execute();
      await k.schema.alterTable('users').addColumn('suspension_reason', 'text').execute();
      await k.schema.alterTable('users').addColumn('verified_at', epochMs).execute();
      await k.schema.alterTable('users').addColumn('deleted_at', epochMs).execute();
      // Students verified before this migration start their status period now.
      await sql`update users set verified_at = ${Date.now()} where verified = 1`.execute(k);

      await k.schema
        .alterTable('chat_messages')
        .addColumn('flags', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  };
}
