import type pg from 'pg';
import { currentScope } from './campus-scope.js';
import { APP_ROLE } from './migrations/015_campuses.js';
import { SESSION_SETTINGS_SQL } from './session-settings.js';

/**
 * PostgreSQL row-level security for campuses (migration 015). Every connection checkout (one
 * query, or one whole transaction) carries the campus of the work in hand as `app.campus_id`
 * (`app.all_campuses` for the readers across campuses), so the policies show and accept only that
 * campus's rows: a query that forgets its campus filter still returns nothing of another campus.
 *
 * The settings are sent only when they differ from what the connection last carried, so a
 * single-campus deployment pays one round trip per pooled connection, not per query.
 *
 * A superuser or BYPASSRLS role is not held to any policy. In production such a connection is
 * refused at start-up; elsewhere (a developer's or the test suite's `postgres` user) scoped work
 * runs as APP_ROLE, which the migration created, and unscoped work (tests' own set-up and checks)
 * keeps the connecting role.
 */
export class RowSecurity {
  /** Set once enforce() ran: the role scoped work switches to (undefined: the connecting role). */
  private switchRole: string | undefined;

  private enforced = false;

  private readonly carried = new WeakMap<object, string>();

  async enforce(pool: pg.Pool, production: boolean): Promise<void> {
    const { rows } = await pool.query<{ name: string; bypasses: boolean }>(
      'select current_user as name, (rolsuper or rolbypassrls) as bypasses from pg_roles where rolname = current_user',
    );
    const me = rows[0];
    if (me?.bypasses) {
      if (production) {
        throw new Error(
          `DATABASE_URL connects as "${me.name}", a superuser or BYPASSRLS role: PostgreSQL would not hold it to the campus isolation policies, so one campus could read another's rows. Connect as an ordinary role that owns the tables (docs/operations.md, "PostgreSQL roles").`,
        );
      }
      const role = await pool.query('select 1 from pg_roles where rolname = $1', [APP_ROLE]);
      if (role.rowCount === 0) {
        throw new Error(
          `DATABASE_URL connects as "${me.name}", which bypasses row-level security, and the role ${APP_ROLE} the migrations create for that case is missing.`,
        );
      }
      this.switchRole = APP_ROLE;
    }
    this.enforced = true;
  }

  /** Makes the connection carry the current scope before the work runs on it. */
  async scope(client: pg.PoolClient): Promise<void> {
    const scope = currentScope();
    const campus = scope && 'campusId' in scope ? String(scope.campusId) : '';
    const all = scope && 'all' in scope ? 'on' : '';
    const role = this.enforced && scope ? this.switchRole : undefined;
    const wanted = `${role ?? ''}|${campus}|${all}`;
    if (this.carried.get(client) === wanted) return;
    const roleStatement = role ? `set role ${role}` : 'reset role';
    // A connection's first statement also carries the app's session settings (session-settings.ts).
    const settings = this.carried.has(client) ? '' : `${SESSION_SETTINGS_SQL}; `;
    // Numbers and fixed words only: nothing here comes from a request.
    await client.query(
      `${settings}${roleStatement}; select set_config('app.campus_id', '${campus}', false), set_config('app.all_campuses', '${all}', false)`,
    );
    this.carried.set(client, wanted);
  }
}
