import { SAFETY_ERROR_CODES, SAFETY_MESSAGES, type BlockedUser } from '@campus/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext, Principal } from '../context.js';
import type { Database } from '../db/schema.js';
import { HttpError, badRequest, notFound } from '../http/errors.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** True when either student blocked the other. */
export async function isBlockedPair(db: Executor, a: number, b: number): Promise<boolean> {
  const row = await db
    .selectFrom('blocks')
    .select('blocker_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
        eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export const blockedError = () => new HttpError(403, SAFETY_MESSAGES.blocked, SAFETY_ERROR_CODES.blocked);

/**
 * The one check every feature that lets two students interact calls (chat SEND, offers, meet-ups):
 * 403 `You can't message this student` when either blocked the other. Reads the database, so a block
 * made on another process holds at once. Pass a transaction to check inside it.
 */
export async function assertNotBlocked(
  ctx: Pick<AppContext, 'db'>,
  a: number,
  b: number,
  executor?: Executor,
): Promise<void> {
  if (await isBlockedPair(executor ?? ctx.db.kysely, a, b)) throw blockedError();
}

const CACHE_TTL_MS = 1_000;
const MAX_USERS = 10_000;

/**
 * Whom each viewer blocked, per process for CACHE_TTL_MS (browse and search hide their listings).
 * A block in this process refreshes at once; one on another process shows within the TTL, like the
 * listings hot cache. Messaging never reads this cache: it checks the database.
 */
export class BlockedSellers {
  private cache = new Map<number, { ids: ReadonlySet<number>; at: number }>();

  constructor(private readonly ctx: AppContext) {}

  /** The viewer's blocked ids when cached and fresh (same rule as `of`), else undefined. */
  cached(userId: number): ReadonlySet<number> | undefined {
    const hit = this.cache.get(userId);
    return hit && Date.now() - hit.at < CACHE_TTL_MS ? hit.ids : undefined;
  }

  async of(userId: number): Promise<ReadonlySet<number>> {
    const hit = this.cached(userId);
    if (hit) return hit;
    const now = Date.now();
    const rows = await this.ctx.db.kysely
      .selectFrom('blocks')
      .select('blocked_id')
      .where('blocker_id', '=', userId)
      .execute();
    const ids = new Set(rows.map((r) => r.blocked_id));
    if (this.cache.size >= MAX_USERS) this.cache.clear();
    this.cache.set(userId, { ids, at: now });
    return ids;
  }

  forget(userId: number): void {
    this.cache.delete(userId);
  }
}

/**
 * PUT/DELETE /users/{id}/block and GET /users/blocked, within the student's campus (features.md
 * §E): a student of another campus is unknown here (404 on block, like an id nobody has).
 */
export class BlocksService {
  constructor(
    private readonly ctx: AppContext,
    readonly blockedSellers: BlockedSellers,
  ) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  async block(principal: Principal, targetId: number): Promise<void> {
    const userId = principal.userId;
    if (userId === targetId) throw badRequest(SAFETY_MESSAGES.blockSelf);
    const target = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', targetId)
      .where('campus_id', '=', principal.campusId)
      .where('verified', '=', 1)
      .executeTakeFirst();
    if (!target) throw notFound(SAFETY_MESSAGES.userNotFound);
    await this.db
      .insertInto('blocks')
      .values({ blocker_id: userId, blocked_id: targetId, created_at: this.ctx.clock() })
      .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
      .execute();
    this.blockedSellers.forget(userId);
  }

  /** Idempotent: unblocking someone never blocked (of this campus or another) changes nothing. */
  async unblock(principal: Principal, targetId: number): Promise<void> {
    const userId = principal.userId;
    await this.db
      .deleteFrom('blocks')
      .where('campus_id', '=', principal.campusId)
      .where('blocker_id', '=', userId)
      .where('blocked_id', '=', targetId)
      .execute();
    this.blockedSellers.forget(userId);
  }

  async list(principal: Principal): Promise<BlockedUser[]> {
    const rows = await this.db
      .selectFrom('blocks')
      .innerJoin('users', 'users.id', 'blocks.blocked_id')
      .select(['users.id', 'users.first_name', 'users.last_name', 'blocks.created_at'])
      .where('blocks.campus_id', '=', principal.campusId)
      .where('blocks.blocker_id', '=', principal.userId)
      .orderBy('blocks.created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      firstName: r.first_name,
      lastName: r.last_name,
      blockedAt: new Date(Number(r.created_at)).toISOString(),
    }));
  }
}
