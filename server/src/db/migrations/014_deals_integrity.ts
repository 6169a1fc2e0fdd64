import { sql, type Migration } from 'kysely';
import { epochMs } from '../columns.js';

/**
 * One confirmed deal per listing, in the database as well as in the hand-off rule (a listing put
 * back on sale after its hand-off could record a second deal). Deals that a database already holds
 * twice for a listing are history with reviews attached: they stay, and the unique index leaves
 * exactly those rows out, so it holds for every deal from now on.
 *
 * offer_mail_marks: what the coalesced offer e-mail of a chat last covered and when it was sent.
 */
export function dealsIntegrityMigration(): Migration {
  return {
    async up(k) {
      const extra = await k
        .selectFrom('deals as d')
        .select('d.id')
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('deals as first')
              .select('first.id')
              .whereRef('first.listing_id', '=', 'd.listing_id')
              .whereRef('first.id', '<', 'd.id'),
          ),
        )
        .execute();
      const ids = extra.map((r) => Number(r.id)).filter((id) => Number.isSafeInteger(id));
      let index = k.schema.createIndex('deals_one_per_listing').on('deals').column('listing_id').unique();
      if (ids.length > 0) index = index.where(sql.ref('id'), 'not in', ids);
      await index.execute();

      await k.schema
        .createTable('offer_mail_marks')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('link', 'varchar(80)', (c) => c.notNull())
        .addColumn('last_notification_id', 'integer', (c) => c.notNull())
        .addColumn('last_sent_at', epochMs, (c) => c.notNull())
        .addPrimaryKeyConstraint('offer_mail_marks_pk', ['user_id', 'link'])
        .execute();
    },
    async down(k) {
      await k.schema.dropTable('offer_mail_marks').execute();
      await k.schema.dropIndex('deals_one_per_listing').execute();
    },
  };
}
