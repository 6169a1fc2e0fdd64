import {
  SAFETY_MESSAGES,
  modReasonSchema,
  suspendSchema,
  type AuditEntry,
  type ModAction,
  type ReportOutcome,
  type ReportTargetType,
} from '@campus/contract';
import type { Transaction } from 'kysely';
import type { AppContext, Principal } from '../context.js';
import { acrossCampuses, inCampus } from '../db/campus-scope.js';
import type { Database } from '../db/schema.js';
import type { Trx } from '../events.js';
import { badRequest, conflict, notFound, parseOr400 } from '../http/errors.js';
import { campusRef, reachOf, readIn } from './reach.js';

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * A moderator removed a listing (its deals end in the same transaction). In the transaction:
     * notifications tells the seller why (centre, live, push and e-mail).
     */
    'moderation.listingRemoved': { sellerId: number; listingId: number; listingName: string; reason: string };
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Runs a listing's removal with the end of its deals in one transaction (deals/removal.ts, wired in
 * app.ts): nothing stays reserved or pending on a listing nobody can see.
 */
export interface ListingRemoval {
  run<T>(listingId: number, write: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
}

/** A moderator of the student's own campus, or an operator (a moderator of every campus, §E). */
export function isModerator(ctx: AppContext, principal: Principal): boolean {
  return ctx.campuses.isModerator(
    ctx.campuses.byId(principal.campusId),
    principal.email,
    ctx.config.operatorEmails,
  );
}

/**
 * Moderator decisions (features.md §C). Each one closes the open reports it answers and appends
 * one audit row in the same transaction; the audit table refuses updates and deletes itself.
 * Each finds its target within the moderator's reach (reach.ts: their campus, or every campus for
 * an operator; another campus's id is 404 like an unknown one) and writes in the target's campus.
 */
export class ModerationService {
  constructor(
    private readonly ctx: AppContext,
    private readonly removal: ListingRemoval,
  ) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  private async audit(
    trx: Trx,
    moderator: Principal,
    action: ModAction,
    target: { type: ReportTargetType; id: number },
    reason: string,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    // The row's campus is the target's (the scope the write runs in), not the moderator's.
    await trx
      .insertInto('mod_audit')
      .values({
        moderator_id: moderator.userId,
        action,
        target_type: target.type,
        target_id: target.id,
        reason,
        detail: JSON.stringify(detail),
        created_at: this.ctx.clock(),
      })
      .execute();
  }

  /** Closes the target's open reports (all of the target's campus, named here for SQLite). */
  private async closeReports(
    trx: Trx,
    moderator: Principal,
    campusId: number,
    where: { type: ReportTargetType; id: number } | { userId: number },
    outcome: ReportOutcome,
  ): Promise<number> {
    let q = trx
      .updateTable('reports')
      .set({ status: 'DONE', outcome, decided_by: moderator.userId, decided_at: this.ctx.clock() })
      .where('campus_id', '=', campusId)
      .where('status', '=', 'OPEN');
    q =
      'userId' in where
        ? q.where('target_user_id', '=', where.userId).where('target_type', 'in', ['USER', 'MESSAGE'])
        : q.where('target_type', '=', where.type).where('target_id', '=', where.id);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The listing the action is about, if it is within the moderator's reach. */
  private findListing(moderator: Principal, listingId: number) {
    const reach = reachOf(this.ctx, moderator);
    let q = this.db
      .selectFrom('listings')
      .select(['moderation', 'name', 'campus_id'])
      .where('id', '=', listingId);
    if (reach !== 'all') q = q.where('campus_id', '=', reach.campusId);
    return readIn(reach, () => q.executeTakeFirst());
  }

  /** The student the action is about, if within the moderator's reach. */
  private findUser(moderator: Principal, userId: number) {
    const reach = reachOf(this.ctx, moderator);
    let q = this.db
      .selectFrom('users')
      .select(['id', 'suspended_at', 'suspended_until', 'deleted_at', 'campus_id'])
      .where('id', '=', userId);
    if (reach !== 'all') q = q.where('campus_id', '=', reach.campusId);
    return readIn(reach, () => q.executeTakeFirst());
  }

  /** Dismisses every open report about the report's target; a listing hidden by reports shows again. */
  async dismiss(moderator: Principal, reportId: number, body: unknown): Promise<void> {
    const reason = optionalReason(body);
    const reach = reachOf(this.ctx, moderator);
    let q = this.db
      .selectFrom('reports')
      .select(['target_type', 'target_id', 'status', 'campus_id'])
      .where('id', '=', reportId);
    if (reach !== 'all') q = q.where('campus_id', '=', reach.campusId);
    const report = await readIn(reach, () => q.executeTakeFirst());
    if (!report) throw notFound(SAFETY_MESSAGES.reportMissing);
    if (report.status !== 'OPEN') throw conflict(SAFETY_MESSAGES.reportAlreadyDone);
    const campusId = Number(report.campus_id);
    const target = { type: report.target_type as ReportTargetType, id: report.target_id };
    await inCampus(campusId, () =>
      this.ctx.domainEvents.transaction(async (trx) => {
        const closed = await this.closeReports(trx, moderator, campusId, target, 'DISMISSED');
        await this.audit(trx, moderator, 'DISMISS', target, reason, { reportId, reportsClosed: closed });
        if (target.type !== 'LISTING') return;
        const shown = await trx
          .updateTable('listings')
          .set({ moderation: null, updated_at: this.ctx.clock() })
          .where('id', '=', target.id)
          .where('campus_id', '=', campusId)
          .where('moderation', '=', 'REPORTED')
          .returningAll()
          .executeTakeFirst();
        if (shown) await this.ctx.domainEvents.announce(trx, 'listing.changed', { row: shown });
      }),
    );
  }

  /**
   * Hidden for everyone but the seller's own list, and no longer tradable: its offers and meet-ups
   * end in the same transaction. The seller is told the reason (centre, push, e-mail through the
   * queue); the search index and hot cache follow after the commit.
   */
  async removeListing(moderator: Principal, listingId: number, body: unknown): Promise<void> {
    const { reason } = parseOr400(modReasonSchema, body);
    const current = await this.findListing(moderator, listingId);
    if (!current) throw notFound(SAFETY_MESSAGES.reportNotFound);
    if (current.moderation === 'REMOVED') throw conflict(SAFETY_MESSAGES.listingAlreadyRemoved);
    const campusId = Number(current.campus_id);
    const target = { type: 'LISTING' as const, id: listingId };
    await inCampus(campusId, () =>
      this.removal.run(listingId, async (trx) => {
        const updated = await trx
          .updateTable('listings')
          .set({ moderation: 'REMOVED', moderation_reason: reason, updated_at: this.ctx.clock() })
          .where('id', '=', listingId)
          .where('campus_id', '=', campusId)
          .returningAll()
          .executeTakeFirstOrThrow();
        const closed = await this.closeReports(trx, moderator, campusId, target, 'REMOVED');
        await this.audit(trx, moderator, 'REMOVE_LISTING', target, reason, {
          listingName: current.name,
          reportsClosed: closed,
        });
        // Deals open this transaction (removal.run), not DomainEvents: told in it, never after.
        await this.ctx.domainEvents.announce(trx, 'moderation.listingRemoved', {
          sellerId: updated.seller_id,
          listingId,
          listingName: current.name,
          reason,
        });
      }),
    );
  }

  /** Shows a removed or report-hidden listing again; its open reports are closed as RESTORED. */
  async restoreListing(moderator: Principal, listingId: number, body: unknown): Promise<void> {
    const reason = optionalReason(body);
    const current = await this.findListing(moderator, listingId);
    if (!current) throw notFound(SAFETY_MESSAGES.reportNotFound);
    if (current.moderation === null) throw conflict(SAFETY_MESSAGES.listingNotHidden);
    const campusId = Number(current.campus_id);
    const target = { type: 'LISTING' as const, id: listingId };
    await inCampus(campusId, () =>
      this.ctx.domainEvents.transaction(async (trx) => {
        const updated = await trx
          .updateTable('listings')
          .set({ moderation: null, moderation_reason: null, updated_at: this.ctx.clock() })
          .where('id', '=', listingId)
          .where('campus_id', '=', campusId)
          .returningAll()
          .executeTakeFirstOrThrow();
        const closed = await this.closeReports(trx, moderator, campusId, target, 'RESTORED');
        await this.audit(trx, moderator, 'RESTORE_LISTING', target, reason, {
          was: current.moderation,
          reportsClosed: closed,
        });
        await this.ctx.domainEvents.announce(trx, 'listing.changed', { row: updated });
      }),
    );
  }

  /**
   * Suspends a student: the token version moves (every token dies), every STOMP session closes on
   * every process (the revoke event travels over Redis), and login answers until when and why.
   */
  async suspend(moderator: Principal, userId: number, body: unknown): Promise<void> {
    const { reason, days } = parseOr400(suspendSchema, body);
    if (userId === moderator.userId) throw badRequest(SAFETY_MESSAGES.suspendSelf);
    const user = await this.findUser(moderator, userId);
    if (!user || user.deleted_at !== null) throw notFound(SAFETY_MESSAGES.userNotFound);
    const campusId = Number(user.campus_id);
    const now = this.ctx.clock();
    const until = days === undefined ? null : now + days * DAY_MS;
    const target = { type: 'USER' as const, id: userId };
    await inCampus(campusId, () =>
      this.ctx.domainEvents.transaction(async (trx) => {
        const updated = await trx
          .updateTable('users')
          .set((eb) => ({
            suspended_at: now,
            suspended_until: until,
            suspension_reason: reason,
            token_version: eb('token_version', '+', 1),
          }))
          .where('id', '=', userId)
          .where('campus_id', '=', campusId)
          .returning('token_version')
          .executeTakeFirstOrThrow();
        const closed = await this.closeReports(trx, moderator, campusId, { userId }, 'SUSPENDED');
        await this.audit(trx, moderator, 'SUSPEND', target, reason, {
          until: until === null ? null : new Date(until).toISOString(),
          reportsClosed: closed,
        });
        await this.ctx.domainEvents.announce(trx, 'user.tokensRevoked', {
          userId,
          tokenVersion: updated.token_version,
        });
      }),
    );
  }

  async unsuspend(moderator: Principal, userId: number, body: unknown): Promise<void> {
    const reason = optionalReason(body);
    const user = await this.findUser(moderator, userId);
    if (!user) throw notFound(SAFETY_MESSAGES.userNotFound);
    const active =
      user.suspended_at !== null &&
      (user.suspended_until === null || Number(user.suspended_until) > this.ctx.clock());
    if (!active) throw conflict(SAFETY_MESSAGES.notSuspended);
    const campusId = Number(user.campus_id);
    await inCampus(campusId, () =>
      this.ctx.domainEvents.transaction(async (trx) => {
        await trx
          .updateTable('users')
          .set({ suspended_at: null, suspended_until: null, suspension_reason: null })
          .where('id', '=', userId)
          .where('campus_id', '=', campusId)
          .execute();
        await this.audit(trx, moderator, 'UNSUSPEND', { type: 'USER', id: userId }, reason);
      }),
    );
  }

  /**
   * Newest first, keyset-paged by id: the moderator's campus, or every campus for an operator.
   * The names of the moderators are read across campuses: an operator of another campus who acted
   * here is named in this campus's log (a name, nothing else of theirs).
   */
  async auditLog(
    moderator: Principal,
    limit: number,
    before: number | undefined,
  ): Promise<{ entries: AuditEntry[]; more: boolean }> {
    const reach = reachOf(this.ctx, moderator);
    let q = this.db
      .selectFrom('mod_audit')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit + 1);
    if (reach !== 'all') q = q.where('campus_id', '=', reach.campusId);
    if (before !== undefined) q = q.where('id', '<', before);
    const rows = await readIn(reach, () => q.execute());
    const page = rows.slice(0, limit);
    const ids = [...new Set(page.map((r) => r.moderator_id))];
    const people =
      ids.length === 0
        ? []
        : await acrossCampuses(() =>
            this.db
              .selectFrom('users')
              .select(['id', 'first_name', 'last_name'])
              .where('id', 'in', ids)
              .execute(),
          );
    const byId = new Map(people.map((p) => [p.id, p]));
    return {
      more: rows.length > limit,
      entries: page.map((r) => ({
        id: r.id,
        campus: campusRef(this.ctx, r.campus_id),
        moderator: {
          id: r.moderator_id,
          firstName: byId.get(r.moderator_id)?.first_name ?? '',
          lastName: byId.get(r.moderator_id)?.last_name ?? '',
        },
        action: r.action as ModAction,
        targetType: r.target_type as ReportTargetType,
        targetId: r.target_id,
        reason: r.reason,
        detail: r.detail,
        createdAt: new Date(Number(r.created_at)).toISOString(),
      })),
    };
  }
}

/** Dismiss, restore and unsuspend take an optional reason (kept in the audit log). */
function optionalReason(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(SAFETY_MESSAGES.reasonRequired);
  const raw = (body as { reason?: unknown }).reason;
  if (raw === undefined || raw === null || raw === '') return '';
  return parseOr400(modReasonSchema, { reason: raw }).reason;
}
