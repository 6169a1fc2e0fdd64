import type { Migration } from 'kysely';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

export function chatMigration(db: Db): Migration {
  return {
    async up(k) {
      await k.schema
        .createTable('chat_rooms')
        .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('low_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('high_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('buyer_id', 'integer', (c) => c.notNull())
        .addColumn('seller_id', 'integer', (c) => c.notNull())
        .addColumn('listing_id', 'integer', (c) => c.references('listings.id').onDelete('set null'))
        .addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addColumn('last_activity_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema
        .createIndex('chat_rooms_low')
        .on('chat_rooms')
        .columns(['low_user_id', 'last_activity_at'])
        .execute();
      await k.schema
        .createIndex('chat_rooms_high')
        .on('chat_rooms')
        .columns(['high_user_id', 'last_activity_at'])
        .execute();
      await withIdColumn(k.schema.createTable('chat_messages'), db.dialect)
        .addColumn('room_id', 'varchar(40)', (c) =>
          c.notNull().references('chat_rooms.id').onDelete('cascade'),
        )
        .addColumn('sender_id', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('url', 'varchar(500)')
        .addColumn('listing_id', 'integer')
        .addColumn('sent_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema
        .createIndex('chat_messages_room')
        .on('chat_messages')
        .columns(['room_id', 'id'])
        .execute();
      await k.schema
        .createTable('chat_reads')
        .addColumn('room_id', 'varchar(40)', (c) =>
          c.notNull().references('chat_rooms.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('last_read_message_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_reads_pk', ['room_id', 'user_id'])
        .execute();
    },
    async down(k) {
      await k.schema.dropTable('chat_reads').execute();
      await k.schema.dropTable('chat_messages').execute();
      await k.schema.dropTable('chat_rooms').execute();
    },
  };
}
