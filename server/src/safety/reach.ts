import type { CampusRef } from '@campus/contract';
import type { AppContext, Principal } from '../context.js';
import { acrossCampuses } from '../db/campus-scope.js';

/**
 * Where a moderator looks and acts (features.md §E): a campus's moderators on their own campus
 * only, operators (OPERATOR_EMAILS) on every campus. Every moderation query names the campus
 * itself when the reach is one campus (SQLite has no row security; another campus's id must
 * answer like an unknown one), and an operator's reads run across campuses so PostgreSQL's row
 * security shows them every campus's rows. Their writes then run in the target's campus
 * (`inCampus`), so the policies accept them and the audit row belongs to that campus.
 */
export type Reach = { campusId: number } | 'all';

export function isOperator(ctx: AppContext, principal: Principal): boolean {
  return ctx.config.operatorEmails.includes(principal.email.toLowerCase());
}

export function reachOf(ctx: AppContext, principal: Principal): Reach {
  return isOperator(ctx, principal) ? 'all' : { campusId: principal.campusId };
}

/** Runs a read of the moderation queue or audit log with the reach's view of the database. */
export function readIn<T>(reach: Reach, read: () => Promise<T>): Promise<T> {
  return reach === 'all' ? acrossCampuses(read) : read();
}

/** The campus a queue item or audit entry belongs to, as the moderation page names it. */
export function campusRef(ctx: AppContext, campusId: number | string): CampusRef {
  const campus = ctx.campuses.byId(Number(campusId));
  return { slug: campus.slug, name: campus.name };
}
