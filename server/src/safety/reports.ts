import {
  SAFETY_LIMITS,
  SAFETY_MESSAGES,
  parseRoomId,
  reportCreateSchema,
  type Report,
  type ReportReason,
  type ReportTargetType,
} from '@campus/contract';
import type { AppContext, Principal } from '../context.js';
import type { Trx } from '../events.js';
import { badRequest, conflict, notFound, parseOr400 } from '../http/errors.js';
import type { ListingRow, ListingsModule } from '../listings/index.js';

export interface ReportRow {
  id: number;
  reporter_id: number;
  target_type: string;
  target_id: number;
  reason: string;
  details: string;
  status: string;
  created_at: number;
}

export function toReport(r: ReportRow): Report {
  return {
    id: r.id,
    targetType: r.target_type as ReportTargetType,
    targetId: r.target_id,
    reason: r.reason as ReportReason,
    details: r.details,
    status: r.status as Report['status'],
    createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return (
    e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/.test(e.message ?? '')
  );
};

/** POST /reports: one open report per reporter and target, only about what the reporter can see. */
export class ReportsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly listings: ListingsModule,
  ) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  async create(principal: Principal, body: unknown): Promise<Report> {
    const input = parseOr400(reportCreateSchema, body);
    const me = principal.userId;
    const ownerId = await this.visibleTargetOwner(principal, input.targetType, input.targetId);
    const existing = await this.db
      .selectFrom('reports')
      .select('id')
      .where('reporter_id', '=', me)
      .where('target_type', '=', input.targetType)
      .where('target_id', '=', input.targetId)
      .where('status', '=', 'OPEN')
      .executeTakeFirst();
    if (existing) throw conflict(SAFETY_MESSAGES.reportDuplicate);
    let row: ReportRow;
    try {
      // The report and the hiding it may cause commit together: a failure leaves neither. The index
      // and hot cache follow at once after commit; other processes see updated_at move.
      row = await this.ctx.domainEvents.transaction(async (trx) => {
        // Reports on one listing take turns (PostgreSQL row lock; SQLite has one writer), so the
        // count below sees every earlier report and the third of three at once still hides it.
        if (input.targetType === 'LISTING' && this.ctx.db.dialect === 'postgres') {
          await trx
            .selectFrom('listings')
            .select('id')
            .where('id', '=', input.targetId)
            .forUpdate()
            .execute();
        }
        const inserted = await trx
          .insertInto('reports')
          .values({
            reporter_id: me,
            target_type: input.targetType,
            target_id: input.targetId,
            target_user_id: ownerId,
            reason: input.reason,
            details: input.details.trim(),
            status: 'OPEN',
            created_at: this.ctx.clock(),
          })
          .returning([
            'id',
            'reporter_id',
            'target_type',
            'target_id',
            'reason',
            'details',
            'status',
            'created_at',
          ])
          .executeTakeFirstOrThrow();
        const hidden =
          input.targetType === 'LISTING' ? await this.hideIfReportedEnough(trx, input.targetId) : undefined;
        if (hidden) await this.ctx.domainEvents.announce(trx, 'listing.changed', { row: hidden });
        return inserted;
      });
    } catch (err) {
      // The same student reporting twice at once on two processes: the partial unique index decides.
      if (isUniqueViolation(err)) throw conflict(SAFETY_MESSAGES.reportDuplicate);
      throw err;
    }
    return toReport(row);
  }

  /**
   * The student behind the target, if the reporter can see it; 404 otherwise (the same answer as
   * for something that does not exist), 400 for one's own listing, account or message. Only
   * within the reporter's campus (features.md §E): another campus's listing, student or message
   * is unknown here, named explicitly because SQLite has no row security.
   */
  private async visibleTargetOwner(
    principal: Principal,
    type: ReportTargetType,
    id: number,
  ): Promise<number> {
    const me = principal.userId;
    const campusId = principal.campusId;
    if (type === 'LISTING') {
      const listing = await this.db
        .selectFrom('listings')
        .select(['seller_id', 'moderation'])
        .where('id', '=', id)
        .where('campus_id', '=', campusId)
        .executeTakeFirst();
      if (!listing || listing.moderation === 'REMOVED') throw notFound(SAFETY_MESSAGES.reportNotFound);
      if (listing.seller_id === me) throw badRequest(SAFETY_MESSAGES.reportOwn);
      const hidden = await this.listings.service.hiddenSellersFor(me);
      if (hidden.has(listing.seller_id)) throw notFound(SAFETY_MESSAGES.reportNotFound);
      return listing.seller_id;
    }
    if (type === 'USER') {
      if (id === me) throw badRequest(SAFETY_MESSAGES.reportOwn);
      const user = await this.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', id)
        .where('campus_id', '=', campusId)
        .where('verified', '=', 1)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!user) throw notFound(SAFETY_MESSAGES.reportNotFound);
      return id;
    }
    const message = await this.db
      .selectFrom('chat_messages')
      .select(['room_id', 'sender_id'])
      .where('id', '=', id)
      .where('campus_id', '=', campusId)
      .executeTakeFirst();
    const pair = message ? parseRoomId(message.room_id) : null;
    // Only a message of one's own conversations.
    if (!message || !pair || (pair[0] !== me && pair[1] !== me))
      throw notFound(SAFETY_MESSAGES.reportNotFound);
    if (message.sender_id === me) throw badRequest(SAFETY_MESSAGES.reportOwn);
    // A blocked peer's messages stay readable, and reportable.
    return message.sender_id;
  }

  /**
   * Three different students with open reports hide a listing from browse and search; runs in the
   * report's transaction. Answers the listing when this report hid it.
   */
  private async hideIfReportedEnough(trx: Trx, listingId: number): Promise<ListingRow | undefined> {
    const count = await trx
      .selectFrom('reports')
      .select((eb) => eb.fn.count<number | string>('reporter_id').distinct().as('n'))
      .where('target_type', '=', 'LISTING')
      .where('target_id', '=', listingId)
      .where('status', '=', 'OPEN')
      .executeTakeFirst();
    if (Number(count?.n ?? 0) < SAFETY_LIMITS.reportsToHide) return undefined;
    return trx
      .updateTable('listings')
      .set({ moderation: 'REPORTED', updated_at: this.ctx.clock() })
      .where('id', '=', listingId)
      .where('moderation', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }
}
