import { randomBytes } from 'node:crypto';
import type { Migration } from 'kysely';
import { epochMs } from '../columns.js';
import type { Db } from '../connection.js';

/**
 * Chat photos and deployments:
 * - `deployment`: one row, this deployment's id, created once with the database. Every process
 *   sharing the database reads the same id and prefixes its Redis channels and keys with it, so two
 *   deployments sharing one Redis never see each other's traffic (REDIS_PREFIX overrides it).
 * - `chat_uploads`: every photo uploaded through POST /api/chats/upload and who uploaded it. A chat
 *   message's `url` must be one of the sender's uploads; an upload no message uses is removed after
 *   24 h by a durable job (chat/photos.ts).
 * - an index on `chat_messages.url`, which that job asks about once per upload.
 */
export function chatHardeningMigration(_db: Db): Migration {
  return {
    async up(k) {
      await k.schema
        .createTable('deployment')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await k
        .insertInto('deployment')
        .values({ id: randomBytes(8).toString('hex'), created_at: Date.now() })
        .execute();

      await k.schema
        .createTable('chat_uploads')
        .addColumn('image_key', 'varchar(80)', (c) => c.primaryKey())
        .addColumn('thumb_key', 'varchar(80)', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .execute();
      await k.schema.createIndex('chat_uploads_user').on('chat_uploads').column('user_id').execute();
      await k.schema.createIndex('chat_messages_url').on('chat_messages').column('url').execute();
    },
    async down(k) {
      await k.schema.dropIndex('chat_messages_url').execute();
      await k.schema.dropTable('chat_uploads').execute();
      await k.schema.dropTable('deployment').execute();
    },
  };
}
