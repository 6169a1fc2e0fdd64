import type { Migration } from 'kysely';
import { epochMs } from '../columns.js';

/**
 * - `jobs.priority`: code e-mails (sign-up, verification, reset, login) are claimed before the
 *   e-mails and notifications of user activity (JOB_PRIORITY in server/src/jobs/queue.ts).
 * - `notifications.dedupe_key`: a timed notice (meet-up reminder, review request) carries a key per
 *   (job, recipient), unique, so a job that runs again cannot tell a student twice.
 * - `notifications.delivered_at`: set in the transaction that queues the notification's e-mail, so
 *   a delivery job that runs again sends nothing.
 */
export function jobLanesMigration(): Migration {
  return {
    async up(k) {
      await k.schema
        .alterTable('jobs')
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await k.schema
        .createIndex('jobs_lane')
        .on('jobs')
        .columns(['failed_at', 'priority', 'run_at'])
        .execute();
      await k.schema.alterTable('notifications').addColumn('dedupe_key', 'varchar(200)').execute();
      await k.schema.alterTable('notifications').addColumn('delivered_at', epochMs).execute();
      await k.schema
        .createIndex('notifications_dedupe_key')
        .on('notifications')
        .column('dedupe_key')
        .unique()
        .execute();
    },
    async down(k) {
      await k.schema.dropIndex('notifications_dedupe_key').execute();
      await k.schema.alterTable('notifications').dropColumn('delivered_at').execute();
      await k.schema.alterTable('notifications').dropColumn('dedupe_key').execute();
      await k.schema.dropIndex('jobs_lane').execute();
      await k.schema.alterTable('jobs').dropColumn('priority').execute();
    },
  };
}
