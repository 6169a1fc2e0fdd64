import { sql, type Kysely, type Migration } from 'kysely';
import { CAMPUS_OWNED_TABLES } from '../campus-scope.js';
import { epochMs, withIdColumn } from '../columns.js';
import type { Db } from '../connection.js';

/**
 * The campus-owned tables that existed when this migration was written. Later migrations create
 * their own campus-owned tables with the column, trigger and policy (e.g. 020), and add them to
 * CAMPUS_OWNED_TABLES; this step must not touch tables that do not exist yet.
 */
const TABLES_OF_015 = CAMPUS_OWNED_TABLES.slice(0, CAMPUS_OWNED_TABLES.indexOf('jobs') + 1);

/** The PostgreSQL role the app's queries run as when it connects as a superuser (db/row-security.ts). */
export const APP_ROLE = 'campus_market_app';

/**
 * Every campus in one deployment (features.md §E).
 *
 * - `campuses`: one row per campus ever configured, upserted by slug at start-up
 *   (campuses/store.ts); a campus that leaves CAMPUSES is closed (`closed_at`), never deleted.
 * - `campus_id` on every campus-owned table (CAMPUS_OWNED_TABLES). An existing database upgrades in
 *   place: every row it holds becomes campus 1, created here with an empty slug, which the default
 *   campus of the configuration adopts at start-up.
 * - A row written without a campus is refused, not filed somewhere: no default on PostgreSQL
 *   (NOT NULL), a trigger on SQLite (where a column added to a table needs a default).
 * - PostgreSQL: row-level security on each of those tables, keyed by `app.campus_id` (or
 *   `app.all_campuses` for the few readers across campuses), forced on the tables' owner too, and a
 *   role without BYPASSRLS for a superuser connection to run the app's queries as.
 */
export function campusesMigration(db: Db): Migration {
  const dialect = db.dialect;
  return {
    async up(k) {
      await withIdColumn(k.schema.createTable('campuses'), dialect)
        .addColumn('slug', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('name', 'varchar(80)', (c) => c.notNull())
        .addColumn('email_domains', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
        .addColumn('about', 'text', (c) => c.notNull())
        .addColumn('meetup_spots', 'text', (c) => c.notNull())
        .addColumn('prohibited_terms', 'text', (c) => c.notNull())
        .addColumn('moderators', 'text', (c) => c.notNull())
        .addColumn('hosts', 'text', (c) => c.notNull())
        .addColumn('sso', 'text')
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('closed_at', epochMs)
        .addColumn('created_at', epochMs, (c) => c.notNull())
        .addColumn('updated_at', epochMs, (c) => c.notNull())
        .execute();
      const now = Date.now();
      await k
        .insertInto('campuses' as never)
        .values({
          slug: '',
          name: 'Campus',
          email_domains: '[]',
          time_zone: 'UTC',
          about: '',
          meetup_spots: '[]',
          prohibited_terms: '[]',
          moderators: '[]',
          hosts: '[]',
          is_default: 1,
          created_at: now,
          updated_at: now,
        } as never)
        .execute();
      if (dialect === 'postgres') await sql`select setval('campuses_id_seq', 1)`.execute(k);

      for (const table of TABLES_OF_015) {
        if (dialect === 'postgres') {
          await sql`alter table ${sql.table(table)} add column campus_id integer not null default 1 references campuses(id)`.execute(
            k,
          );
          await sql`alter table ${sql.table(table)} alter column campus_id drop default`.execute(k);
        } else {
          await sql`alter table ${sql.table(table)} add column campus_id integer not null default 0`.execute(
            k,
          );
          await sql`update ${sql.table(table)} set campus_id = 1`.execute(k);
          await sql
            .raw(
              `create trigger ${table}_campus_required before insert on ${table} when new.campus_id = 0 ` +
                `begin select raise(abort, 'campus_id is required on ${table}'); end`,
            )
            .execute(k);
        }
      }
      await k.schema.createIndex('users_campus').on('users').columns(['campus_id', 'id']).execute();
      await k.schema
        .createIndex('listings_campus_created')
        .on('listings')
        .columns(['campus_id', 'created_at'])
        .execute();
      await k.schema
        .createIndex('jobs_campus_lane')
        .on('jobs')
        .columns(['campus_id', 'failed_at', 'priority', 'run_at'])
        .execute();

      if (dialect === 'postgres') await enableRowSecurity(k);
    },
    async down(k) {
      for (const table of TABLES_OF_015) {
        if (dialect === 'postgres') {
          await sql`drop policy if exists campus_isolation on ${sql.table(table)}`.execute(k);
          await sql`alter table ${sql.table(table)} no force row level security`.execute(k);
          await sql`alter table ${sql.table(table)} disable row level security`.execute(k);
        } else {
          await sql.raw(`drop trigger if exists ${table}_campus_required`).execute(k);
        }
      }
      await k.schema.dropIndex('jobs_campus_lane').execute();
      await k.schema.dropIndex('listings_campus_created').execute();
      await k.schema.dropIndex('users_campus').execute();
      for (const table of TABLES_OF_015) {
        await k.schema.alterTable(table).dropColumn('campus_id').execute();
      }
      await k.schema.dropTable('campuses').execute();
    },
  };
}

/** The condition every policy uses: the scope's campus, or every campus for the named readers. */
const VISIBLE =
  "(campus_id = nullif(current_setting('app.campus_id', true), '')::integer" +
  " or current_setting('app.all_campuses', true) = 'on')";

async function enableRowSecurity(k: Kysely<unknown>): Promise<void> {
  for (const table of TABLES_OF_015) {
    await sql.raw(`alter table ${table} enable row level security`).execute(k);
    // FORCE: the owner of the tables (the role that ran this migration) is held to it too.
    await sql.raw(`alter table ${table} force row level security`).execute(k);
    await sql
      .raw(`create policy campus_isolation on ${table} using ${VISIBLE} with check ${VISIBLE}`)
      .execute(k);
  }
  // A superuser (or BYPASSRLS) connection is not held to any policy, so the app runs its queries
  // as this role instead. Created only where the migrating role may create roles; a deployment
  // that connects as an ordinary role needs none (docs/operations.md).
  await sql
    .raw(
      `do $$
begin
  if exists (select 1 from pg_roles where rolname = current_user and (rolsuper or rolcreaterole)) then
    begin
      create role ${APP_ROLE} nologin nobypassrls;
    exception when duplicate_object then null;
    end;
    -- A superuser may SET ROLE to any role; a role with CREATEROLE needs membership. Several
    -- databases of one server may migrate at once (tests): a concurrent grant is not an error.
    if not pg_has_role(current_user, '${APP_ROLE}', 'member') then
      begin
        execute format('grant ${APP_ROLE} to %I', current_user);
      exception when others then null;
      end;
    end if;
    grant usage on schema public to ${APP_ROLE};
    grant select, insert, update, delete on all tables in schema public to ${APP_ROLE};
    grant usage, select, update on all sequences in schema public to ${APP_ROLE};
    alter default privileges in schema public grant select, insert, update, delete on tables to ${APP_ROLE};
    alter default privileges in schema public grant usage, select, update on sequences to ${APP_ROLE};
  end if;
end $$`,
    )
    .execute(k);
}
