import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ColumnNode,
  InsertQueryNode,
  PrimitiveValueListNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * Which campus the work in hand belongs to (features.md §E). Set once where work enters: the auth
 * hook of a request (the student's campus), a STOMP frame (the session's student), a job (the
 * job's campus), sign-up and login (the campus of the address). Everything below reads it:
 * - inserts into a campus-owned table get `campus_id` from it (campusInsertPlugin, both databases);
 * - on PostgreSQL each connection checkout carries it as `app.campus_id`, and row-level security
 *   shows and accepts only that campus's rows (db/row-security.ts);
 * - work with no scope sees nothing of any campus on PostgreSQL, and an insert into a
 *   campus-owned table fails on both databases (rather than landing in some campus).
 * `all` is the deliberate exception: start-up, the job queue's claim, the search index's load and
 * the operators' moderation queue read across campuses, and say so where they do.
 */
export type CampusScope = { campusId: number } | { all: true };

const storage = new AsyncLocalStorage<CampusScope>();

/** Runs `work` (and everything it awaits) as work of one campus. */
export function inCampus<T>(campusId: number, work: () => T): T {
  return storage.run({ campusId }, work);
}

/** Runs `work` across every campus: only for the few readers named in the comment above. */
export function acrossCampuses<T>(work: () => T): T {
  return storage.run({ all: true }, work);
}

export function currentScope(): CampusScope | undefined {
  return storage.getStore();
}

/** The campus of the work in hand, or undefined outside a single campus's scope. */
export function currentCampusId(): number | undefined {
  const scope = storage.getStore();
  return scope && 'campusId' in scope ? scope.campusId : undefined;
}

/** The campus of the work in hand; throws when there is none (a programming error, not input). */
export function requireCampusId(): number {
  const id = currentCampusId();
  if (id === undefined) throw new Error('No campus in scope: this work must run inside inCampus()');
  return id;
}

/**
 * The campus-owned tables migration 015 gave `campus_id` (frozen: later migrations create their
 * own campus-owned tables with `campus_id`, the trigger and the policy, see campusOwnTable).
 */
export const CAMPUS_TABLES_OF_015 = [
  'users',
  'codes',
  'signup_codes',
  'listings',
  'listing_photos',
  'listing_saves',
  'listing_price_drops',
  'saved_searches',
  'saved_search_matches',
  'wanted_posts',
  'wanted_matches',
  'chat_rooms',
  'chat_messages',
  'chat_reads',
  'chat_uploads',
  'chat_mail_marks',
  'offer_mail_marks',
  'offers',
  'meetups',
  'deals',
  'reviews',
  'blocks',
  'reports',
  'mod_audit',
  'creation_log',
  'notifications',
  'notification_prefs',
  'push_subscriptions',
  'jobs',
] as const;

/**
 * Every table whose rows belong to one campus. `campuses`, `deployment` and the migration
 * bookkeeping are the only tables outside it.
 */
export const CAMPUS_OWNED_TABLES = [
  ...CAMPUS_TABLES_OF_015,
  // 018_free_items_claims
  'claims',
  'claim_draws',
  // 019_bundles
  'offer_items',
  'deal_items',
  // 020_hold_and_move_out
  'move_out_plans',
  'move_out_prices',
  // 021_university_sign_in
  'sso_requests',
  'sso_exchange_codes',
  'sso_assertions',
] as const;
export type CampusOwnedTable = (typeof CAMPUS_OWNED_TABLES)[number];

const OWNED = new Set<string>(CAMPUS_OWNED_TABLES);

/**
 * Fills `campus_id` of an insert into a campus-owned table from the scope, so no module repeats it
 * and none can forget it. An insert that names `campus_id` itself is left alone (the job queue
 * files a job under the campus it is for). Without a campus in scope the insert is sent without
 * the column and the database refuses it (no default on PostgreSQL, a trigger on SQLite).
 */
export const campusInsertPlugin: KyselyPlugin = {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (!InsertQueryNode.is(node)) return node;
    const table = node.into?.table.identifier.name;
    if (!table || !OWNED.has(table)) return node;
    const campusId = currentCampusId();
    if (campusId === undefined || !node.columns || !node.values || !ValuesNode.is(node.values)) return node;
    if (node.columns.some((c) => c.column.name === 'campus_id')) return node;
    const values = ValuesNode.create(
      node.values.values.map((row) =>
        PrimitiveValueListNode.is(row)
          ? PrimitiveValueListNode.create([...row.values, campusId])
          : ValueListNode.create([...row.values, ValueNode.create(campusId)]),
      ),
    );
    return InsertQueryNode.cloneWith(node, {
      columns: [...node.columns, ColumnNode.create('campus_id')],
      values,
    });
  },
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  },
};
