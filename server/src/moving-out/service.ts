import {
  MOVE_OUT_LIMITS,
  MOVE_OUT_MESSAGES,
  dayStartMs,
  moveOutBodySchema,
  type Listing,
  type MoveOutPlan,
} from '@campus/contract';
import type { AppContext, Principal } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { Trx } from '../events.js';
import { badRequest } from '../http/errors.js';
import { toListings, type ListingRow, type SeasonWrites } from '../listings/index.js';
import * as store from './store.js';

const DAY_MS = 24 * 3_600_000;
/** A student holds or sells few held items at once; the list is one page. */
const HELD_MAX = 50;
export const JOB_PRICE_STEP = 'moving-out.price-step';
export const JOB_DEADLINE = 'moving-out.deadline';

/** What the moving-out module needs from listings (wired in app.ts). */
export interface MovingOutDeps {
  season: SeasonWrites;
  /** Sellers the viewer blocked (safety): left out of the feed, as browse leaves them out. */
  hiddenSellers(userId: number): Promise<ReadonlySet<number>>;
}

interface StepPayload {
  userId: number;
  version: number;
  step: number;
}

/**
 * Moving out (features.md §H): a student's move-out plan, the campus feed of what must go, and the
 * timers of a plan (automatic price steps, and the date itself). Every timer is a durable keyed
 * job carrying the plan's version: when it runs it re-reads the plan and does nothing if the plan
 * was cleared, changed (a newer version has its own timers) or already done, and each listing is
 * re-checked (still AVAILABLE? the seller's own price since the last step?).
 */
export class MovingOutService {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: MovingOutDeps,
  ) {}

  private timeZone(): string {
    return this.ctx.campuses.byId(requireCampusId()).timeZone;
  }

  /** GET /users/me/move-out: the plan, or undefined (204). */
  async get(principal: Principal): Promise<MoveOutPlan | undefined> {
    const row = await store.findPlan(this.ctx.db.kysely, principal.userId);
    return row && row.done_at === null ? store.toPlan(row) : undefined;
  }

  /** PUT /users/me/move-out: sets or replaces the plan and schedules its timers. */
  async put(principal: Principal, body: unknown): Promise<MoveOutPlan> {
    const parsed = moveOutBodySchema.safeParse(body);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? MOVE_OUT_MESSAGES.bodyInvalid);
    const input = parsed.data;
    const now = this.ctx.clock();
    const deadlineAt = dayStartMs(input.date, this.timeZone());
    if (deadlineAt <= now) throw badRequest(MOVE_OUT_MESSAGES.dateNotFuture);
    if (deadlineAt > now + MOVE_OUT_LIMITS.maxDaysAhead * DAY_MS)
      throw badRequest(MOVE_OUT_MESSAGES.dateTooFar);
    const plan: MoveOutPlan = {
      date: input.date,
      autoDrop: input.autoDrop ?? false,
      floorPercent: input.floorPercent ?? MOVE_OUT_LIMITS.floorPercentDefault,
      thenFree: input.thenFree ?? false,
    };
    await this.ctx.domainEvents.transaction(async (trx) => {
      const row = await store.savePlan(trx, principal.userId, { ...plan, deadlineAt }, now);
      await this.schedule(trx, row, now);
    });
    this.ctx.jobs.kick();
    await this.deps.season.sellerChanged(this.ctx.db.kysely, principal.userId);
    return plan;
  }

  /** DELETE /users/me/move-out: the plan goes; its timers find nothing when they run. Prices stay. */
  async clear(principal: Principal): Promise<void> {
    const removed = await this.ctx.domainEvents.transaction((trx) => store.deletePlan(trx, principal.userId));
    if (removed) await this.deps.season.sellerChanged(this.ctx.db.kysely, principal.userId);
  }

  /** The steps still ahead run at their time; a step whose time has passed runs at once. */
  private async schedule(trx: Trx, row: store.PlanRow, now: number): Promise<void> {
    const deadline = Number(row.deadline_at);
    const base = { userId: row.user_id, version: row.version };
    if (row.auto_drop === 1) {
      for (const [i, step] of MOVE_OUT_LIMITS.steps.entries()) {
        const runAt = Math.max(now, deadline - step.daysBefore * DAY_MS);
        const payload: StepPayload = { ...base, step: i + 1 };
        await this.ctx.jobs.enqueue(trx, JOB_PRICE_STEP, payload, {
          runAt,
          key: `${JOB_PRICE_STEP}:${row.user_id}:${row.version}:${i + 1}`,
        });
      }
    }
    await this.ctx.jobs.enqueue(trx, JOB_DEADLINE, base, {
      runAt: deadline,
      key: `${JOB_DEADLINE}:${row.user_id}:${row.version}`,
    });
  }

  /** The plan a timer was scheduled for, if it still stands (same version, not done). */
  private async current(trx: Trx, p: { userId: number; version: number }) {
    const plan = await store.findPlan(trx, p.userId);
    if (!plan || plan.version !== p.version || plan.done_at !== null) return undefined;
    return plan;
  }

  /**
   * An automatic price step: each listing still on the market goes to `percentOff` below its
   * original price (its price when the first step ran), never below the floor, never up, and
   * never over a price the seller set after an earlier step.
   */
  runStep(p: StepPayload): Promise<void> {
    return this.ctx.domainEvents.transaction(async (trx) => {
      const plan = await this.current(trx, p);
      const step = MOVE_OUT_LIMITS.steps[p.step - 1];
      if (!plan || !step || plan.auto_drop !== 1) return;
      const now = this.ctx.clock();
      if (now < Number(plan.deadline_at) - step.daysBefore * DAY_MS) return;
      for (const listing of await this.deps.season.availableOfSeller(trx, plan.user_id)) {
        await this.stepListing(trx, plan, listing, p.step, step.percentOff, now);
      }
    });
  }

  private async stepListing(
    trx: Trx,
    plan: store.PlanRow,
    listing: ListingRow,
    stepNo: number,
    percentOff: number,
    now: number,
  ): Promise<void> {
    const seen = await store.findPrice(trx, listing.id);
    if (seen && (seen.step >= stepNo || seen.seller_priced === 1)) return;
    const current = listing.price_cents;
    const base = {
      listingId: listing.id,
      sellerId: plan.user_id,
      originalCents: seen?.original_cents ?? current,
    };
    // The seller changed the price after an earlier step: their price stands from now on.
    if (seen && seen.step > 0 && current !== seen.last_auto_cents) {
      await store.recordStep(
        trx,
        seen,
        { ...base, lastAutoCents: seen.last_auto_cents, step: seen.step },
        true,
        now,
      );
      return;
    }
    const floor = Math.ceil((base.originalCents * plan.floor_percent) / 100);
    const target = Math.max(floor, Math.round((base.originalCents * (100 - percentOff)) / 100));
    if (target >= current) {
      await store.recordStep(trx, seen, { ...base, lastAutoCents: current, step: stepNo }, false, now);
      return;
    }
    const lowered = await this.deps.season.lowerPrice(trx, listing.id, current, target, now);
    await store.recordStep(
      trx,
      seen,
      { ...base, lastAutoCents: lowered ? target : current, step: stepNo },
      false,
      now,
    );
  }

  /** The date: what is still on the market turns free (thenFree) or leaves browse; the plan is done. */
  runDeadline(p: { userId: number; version: number }): Promise<void> {
    return this.ctx.domainEvents.transaction(async (trx) => {
      const plan = await this.current(trx, p);
      if (!plan) return;
      const now = this.ctx.clock();
      if (now < Number(plan.deadline_at)) return;
      for (const listing of await this.deps.season.availableOfSeller(trx, plan.user_id)) {
        if (plan.then_free === 1) await this.turnListingFree(trx, listing, now);
        else await this.deps.season.takeOffMarket(trx, listing.id, now);
      }
      await store.markDone(trx, plan.id, now);
    });
  }

  /**
   * thenFree: the listing becomes a free item whose claim window opens at the date; anyone who
   * claims it schedules the giveaway's timers (claims module), as on an item posted free.
   */
  private async turnListingFree(trx: Trx, listing: ListingRow, now: number): Promise<void> {
    await this.deps.season.turnFree(trx, listing.id, now);
  }

  /** GET /listings/moving-out: the campus feed (or one seller's shelf), soonest deadline first. */
  async feed(
    principal: Principal,
    q: { limit: number; after?: store.FeedCursor; sellerId?: number },
  ): Promise<{ listings: Listing[]; next?: store.FeedCursor }> {
    const hidden = await this.deps.hiddenSellers(principal.userId);
    const rows = await store.feed(this.ctx.db.kysely, {
      excludeSellers: [...hidden],
      sellerId: q.sellerId,
      after: q.after,
      limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      listings: await toListings(this.ctx.db.kysely, this.ctx.photoStorage, page),
      next: rows.length > q.limit && last ? { deadlineAt: Number(last.deadline_at), id: last.id } : undefined,
    };
  }

  /** GET /listings/held: what the caller sells or holds "for the fall", soonest day first. */
  async held(principal: Principal): Promise<Listing[]> {
    const rows = await store.heldFor(this.ctx.db.kysely, principal.userId, HELD_MAX);
    return toListings(this.ctx.db.kysely, this.ctx.photoStorage, rows);
  }

  registerJobs(): void {
    this.ctx.jobs.register<StepPayload>(JOB_PRICE_STEP, (p) => this.runStep(p));
    this.ctx.jobs.register<{ userId: number; version: number }>(JOB_DEADLINE, (p) => this.runDeadline(p));
  }
}
