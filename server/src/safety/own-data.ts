import {
  ERROR_CODES,
  SAFETY_MESSAGES,
  deleteAccountSchema,
  parseRoomId,
  type DataExport,
} from '@campus/contract';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { verifyPassword } from '../accounts/index.js';
import type { AppContext, Principal } from '../context.js';
import { HttpError, notFound, parseOr400 } from '../http/errors.js';
import type { ListingsModule } from '../listings/index.js';
import { removeLater } from '../media/index.js';

/** A column naming a student: `user_id`, `seller_id`, `low_user_id`, `reporter_id`… */
export const USER_COLUMN =
  /^(?:[a-z]+_)?(?:user|seller|buyer|sender|reporter|blocker|moderator|author|reviewer|recipient|owner|proposer|viewer)_id$/;

/**
 * Which columns make a row the student's own, where the name alone would say too much: a report
 * about the student would reveal its reporter, a block of the student who blocked them.
 */
const OWNER_COLUMNS: Record<string, readonly string[]> = {
  users: ['id'],
  reports: ['reporter_id'],
  blocks: ['blocker_id'],
};

/** Never exported: secrets and one-time codes (their hashes are no use to anyone but an attacker). */
// handoff_code (deals): a seller whose counter-offer was accepted must not read the buyer's code.
const SECRET_COLUMN = /(?:hash|secret|token|password|handoff_code)/;

/**
 * Columns left out of a table's export because they name someone else the student must not learn
 * about: the moderator who decided their report (moderators act for the app, not by name).
 */
const HIDDEN_COLUMNS: Record<string, readonly string[]> = {
  reports: ['decided_by'],
};

/** Tables that only the app's machinery uses. */
const SKIP_TABLES = new Set(['jobs', 'kysely_migration', 'kysely_migration_lock']);

export interface UserTable {
  table: string;
  /** Columns whose value equal to the student's id makes the row theirs. */
  ownerColumns: string[];
  columns: string[];
}

/** Every table with a column naming a student, found from the database itself (both dialects). */
export async function userTables(ctx: AppContext): Promise<UserTable[]> {
  const tables = await ctx.db.kysely.introspection.getTables();
  const out: UserTable[] = [];
  for (const t of tables) {
    if (SKIP_TABLES.has(t.name) || t.isView) continue;
    const columns = t.columns.map((c) => c.name);
    const owners = OWNER_COLUMNS[t.name] ?? columns.filter((c) => USER_COLUMN.test(c));
    if (owners.length > 0) out.push({ table: t.name, ownerColumns: [...owners], columns });
  }
  return out.sort((a, b) => a.table.localeCompare(b.table));
}

/**
 * GET /users/me/export: every row of every table with a user column that is the student's, as
 * JSON (secrets left out). Tables added later by other features are included without a change
 * here, as long as their student columns are named like USER_COLUMN. Chat messages: every message
 * of the student's conversations (both sides: it is their conversation), without anti-scam flags
 * on their own. Only rows of the student's campus (features.md §E), on both databases.
 */
export async function exportData(ctx: AppContext, principal: Principal): Promise<DataExport> {
  const db = ctx.db.kysely;
  const me = principal.userId;
  const tables: DataExport['tables'] = {};
  for (const t of await userTables(ctx)) {
    const hidden = HIDDEN_COLUMNS[t.table] ?? [];
    const keep = t.columns.filter(
      (c) => (!SECRET_COLUMN.test(c) || c === 'token_version') && !hidden.includes(c),
    );
    let rows: Array<Record<string, unknown>>;
    if (t.table === 'chat_messages') {
      const rooms = await db
        .selectFrom('chat_rooms')
        .select('id')
        .where('campus_id', '=', principal.campusId)
        .where((eb) => eb.or([eb('low_user_id', '=', me), eb('high_user_id', '=', me)]))
        .execute();
      const ids = rooms.map((r) => r.id).filter((id) => parseRoomId(id) !== null);
      rows =
        ids.length === 0
          ? []
          : await db
              .selectFrom('chat_messages')
              .selectAll()
              .where('room_id', 'in', ids)
              .orderBy('id')
              .execute();
      rows = rows.map((r) => (r.sender_id === me ? { ...r, flags: '' } : r));
    } else {
      const owned = sql.join(
        t.ownerColumns.map((c) => sql`${sql.ref(c)} = ${me}`),
        sql` or `,
      );
      // Only the student's campus, as PostgreSQL's row security shows it: an operator's actions on
      // another campus (mod_audit rows of that campus) are that campus's records, not theirs.
      const where = t.columns.includes('campus_id')
        ? sql`${sql.ref('campus_id')} = ${principal.campusId} and (${owned})`
        : owned;
      const query = sql<
        Record<string, unknown>
      >`select ${sql.join(keep.map((c) => sql.ref(c)))} from ${sql.table(t.table)} where ${where}`;
      rows = (await query.execute(db)).rows;
    }
    tables[t.table] = rows.map((r) =>
      Object.fromEntries(Object.entries(r).filter(([k]) => keep.includes(k) || t.table === 'chat_messages')),
    );
  }
  return { exportedAt: new Date(ctx.clock()).toISOString(), userId: me, tables };
}

/**
 * DELETE /users/me {password}: listings (with their photo files), saves, saved searches, wanted
 * posts, the avatar (files too), bio, notifications, notification settings and push subscriptions
 * go; the account row stays, emptied, so messages stay readable to the peer "from Deleted
 * student"; every session ends on every process.
 */
export async function deleteAccount(
  ctx: AppContext,
  listings: ListingsModule,
  principal: Principal,
  body: unknown,
): Promise<void> {
  const { password } = parseOr400(deleteAccountSchema, body);
  const db = ctx.db.kysely;
  const me = principal.userId;
  const user = await db.selectFrom('users').selectAll().where('id', '=', me).executeTakeFirst();
  if (!user || user.deleted_at !== null) throw notFound(SAFETY_MESSAGES.userNotFound);
  if (!(await verifyPassword(user.password_hash, password))) {
    throw new HttpError(400, SAFETY_MESSAGES.passwordWrong, ERROR_CODES.validation);
  }
  // Listings through the listings service: rows, search index, hot cache and photo files.
  const own = await db.selectFrom('listings').select('id').where('seller_id', '=', me).execute();
  for (const { id } of own) {
    try {
      await listings.service.remove(principal, id);
    } catch (err) {
      if (!(err instanceof HttpError && err.statusCode === 404)) throw err;
    }
  }
  await ctx.domainEvents.transaction(async (trx) => {
    await trx.deleteFrom('listing_saves').where('user_id', '=', me).execute();
    await trx.deleteFrom('saved_search_matches').where('user_id', '=', me).execute();
    await trx.deleteFrom('saved_searches').where('user_id', '=', me).execute();
    await trx.deleteFrom('wanted_matches').where('user_id', '=', me).execute();
    await trx.deleteFrom('wanted_posts').where('user_id', '=', me).execute();
    // A move-out plan (features.md §H): its timers find no plan and do nothing.
    await trx.deleteFrom('move_out_prices').where('seller_id', '=', me).execute();
    await trx.deleteFrom('move_out_plans').where('user_id', '=', me).execute();
    await trx.deleteFrom('codes').where('user_id', '=', me).execute();
    await trx.deleteFrom('signup_codes').where('user_id', '=', me).execute();
    await trx
      .deleteFrom('blocks')
      .where((eb) => eb.or([eb('blocker_id', '=', me), eb('blocked_id', '=', me)]))
      .execute();
    await trx.deleteFrom('creation_log').where('user_id', '=', me).execute();
    // What the centre, push and e-mail knew: held e-mail and push find no notification and stop.
    await trx.deleteFrom('notifications').where('user_id', '=', me).execute();
    await trx.deleteFrom('notification_prefs').where('user_id', '=', me).execute();
    await trx.deleteFrom('push_subscriptions').where('user_id', '=', me).execute();
    await trx.deleteFrom('chat_mail_marks').where('user_id', '=', me).execute();
    // The avatar's files go through a durable job enqueued here: gone if and only if this commits,
    // even when the process stops right after.
    await removeLater(ctx, trx, user.avatar_key, user.avatar_thumb_key);
    const updated = await trx
      .updateTable('users')
      .set((eb) => ({
        // The address is freed (a new sign-up may use it) and nothing identifies the student.
        email: `deleted-${me}-${randomBytes(6).toString('hex')}@deleted.invalid`,
        first_name: 'Deleted',
        last_name: 'student',
        bio: null,
        avatar_key: null,
        avatar_thumb_key: null,
        password_hash: `!deleted:${randomBytes(16).toString('hex')}`,
        verified: 0,
        token_version: eb('token_version', '+', 1),
        deleted_at: ctx.clock(),
        suspended_at: null,
        suspended_until: null,
        suspension_reason: null,
      }))
      .where('id', '=', me)
      .returning('token_version')
      .executeTakeFirstOrThrow();
    // Every session of the student ends once this commits (token cache, STOMP on every process).
    await ctx.domainEvents.announce(trx, 'user.tokensRevoked', {
      userId: me,
      tokenVersion: updated.token_version,
    });
  });
  ctx.jobs.kick();
}
