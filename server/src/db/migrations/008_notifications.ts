import type { Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

/**
 * Notifications (features.md §D): the centre's rows, per-kind channel settings (only the ones a
 * student switched off are stored), web push subscriptions, and the last unread-chat e-mail per
 * room (the once-an-hour rule).
 */
export function notificationsMigration(db: Db): Migration {
  return {
    async up(k) {
      await withIdColumn(k.schema.createTable('notifications'), db.dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('body', 'varchar(500)', (c) => c.notNull())
        .addColumn('link', 'varchar(300)', (c) => c.notNull())
        // What the notification is about (a listing id for matches and price drops).
        .addColumn('subject_id', 'integer')
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addColumn('read_at', epochMs)
        .execute();
      // The centre pages newest first per user; the unread count scans the unread tail.
      await k.schema
        .createIndex('notifications_user')
        .on('notifications')
        .columns(['user_id', 'id'])
        .execute();
      await k.schema
        .createIndex('notifications_subject')
        .on('notifications')
        .columns(['type', 'subject_id', 'id'])
        .execute();

      await k.schema
        .createTable('notification_prefs')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('channel', 'varchar(8)', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_prefs_pk', ['user_id', 'kind', 'channel'])
        .execute();

      await withIdColumn(k.schema.createTable('push_subscriptions'), db.dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('endpoint', 'varchar(1000)', (c) => c.notNull().unique())
        .addColumn('p256dh', 'varchar(120)', (c) => c.notNull())
        .addColumn('auth', 'varchar(40)', (c) => c.notNull())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema
        .createIndex('push_subscriptions_user')
        .on('push_subscriptions')
        .column('user_id')
        .execute();

      await k.schema
        .createTable('chat_mail_marks')
        .addColumn('room_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('last_sent_at', epochMs, (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_mail_marks_pk', ['room_id', 'user_id'])
        .execute();
    },
    async down(k) {
      await k.schema.dropTable('chat_mail_marks').execute();
      await k.schema.dropTable('push_subscriptions').execute();
      await k.schema.dropTable('notification_prefs').execute();
      await k.schema.dropTable('notifications').execute();
    },
  };
}
