import {
  PRICE_GUIDE_LIMITS,
  PRICE_GUIDE_MESSAGES,
  centsToDollars,
  priceGuideQuery,
  priceGuideResponse,
  type PriceGuide,
  type PriceGuideQuery,
} from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { principalOf, requireAuth } from '../http/auth.js';
import { badRequest, parseOr400 } from '../http/errors.js';
import { doc } from '../http/openapi.js';
import { queryMatches } from '../listings/index.js';

const DAY_MS = 86_400_000;
/** The newest matching deals read for one guide: a year of one campus's sales of one kind is fewer. */
const CANDIDATES_MAX = 5_000;

/** Which deals a guide is computed over (features.md §H). */
export type GuideRule =
  | { kind: 'book'; isbn: string | null; courseCode: string | null }
  | { kind: 'named'; category: string; condition: string | null; query: string };

/**
 * BOOKS with an ISBN or a course code: the same ISBN or course. Anything else (a book without
 * either included): same category, the same condition when one is given (none chosen yet: any), and
 * a search match on the name.
 */
export function ruleFor(q: PriceGuideQuery): GuideRule {
  const isbn = q.isbn ?? null;
  const courseCode = q.courseCode ?? null;
  if ((q.category === undefined || q.category === 'BOOKS') && (isbn || courseCode)) {
    return { kind: 'book', isbn, courseCode };
  }
  if (q.category === undefined) throw badRequest(PRICE_GUIDE_MESSAGES.categoryRequired);
  if (!q.query) throw badRequest(PRICE_GUIDE_MESSAGES.queryRequired);
  return { kind: 'named', category: q.category, condition: q.condition ?? null, query: q.query };
}

/** Low, median and high of prices in cents (the median of an even count is the middle pair's mean). */
export function summarise(cents: readonly number[]): PriceGuide {
  const sorted = [...cents].sort((a, b) => a - b);
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  const median =
    n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return {
    low: centsToDollars(sorted[0] as number),
    median: centsToDollars(Math.round(median)),
    high: centsToDollars(sorted[n - 1] as number),
    count: n,
  };
}

/**
 * What a kind of item sold for on the caller's campus: deals confirmed by hand-off code (the only
 * ones the deals table records; PUT /listings/sold records none) in the last 365 days, at a price
 * (a free item's deal at $0 is not a sale). A deal whose listing was deleted since has no category
 * left to match and does not count. Undefined when fewer than 3 match.
 */
export async function priceGuide(
  ctx: AppContext,
  campusId: number,
  rule: GuideRule,
): Promise<PriceGuide | undefined> {
  const since = ctx.clock() - PRICE_GUIDE_LIMITS.windowDays * DAY_MS;
  let query = ctx.db.kysely
    .selectFrom('deals')
    .innerJoin('listings', 'listings.id', 'deals.listing_id')
    .select(['deals.price_cents', 'deals.listing_name'])
    .where('deals.campus_id', '=', campusId)
    .where('listings.campus_id', '=', campusId)
    .where('deals.completed_at', '>=', since)
    .where('deals.price_cents', '>', 0)
    // A bundle's price is for all its items together: no guide to what one of them sold for.
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('deal_items')
            .select('deal_items.deal_id')
            .whereRef('deal_items.deal_id', '=', 'deals.id'),
        ),
      ),
    );
  if (rule.kind === 'book') {
    const { isbn, courseCode } = rule;
    query = query
      .where('listings.category', '=', 'BOOKS')
      .where((eb) =>
        eb.or([
          ...(isbn ? [eb('listings.isbn', '=', isbn)] : []),
          ...(courseCode ? [eb('listings.course_code', '=', courseCode)] : []),
        ]),
      );
  } else {
    query = query.where('listings.category', '=', rule.category);
    if (rule.condition) query = query.where('listings.condition', '=', rule.condition);
  }
  const rows = await query.orderBy('deals.completed_at', 'desc').limit(CANDIDATES_MAX).execute();
  const prices =
    rule.kind === 'book'
      ? rows.map((r) => r.price_cents)
      : rows
          .filter((r) =>
            // The name only: a query naming the category must not match every deal of it.
            queryMatches(rule.query, {
              name: r.listing_name,
              description: '',
              category: '',
              courseCode: null,
              isbn: null,
            }),
          )
          .map((r) => r.price_cents);
  return prices.length < PRICE_GUIDE_LIMITS.minDeals ? undefined : summarise(prices);
}

/** GET /listings/price-guide (logged-in students; their own campus's deals only). */
export async function registerPriceGuide(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('preHandler', requireAuth(ctx));
    scope.get(
      // A static path: Fastify's router prefers it to GET /listings/:category whatever the order.
      '/listings/price-guide',
      doc({
        tag: 'listings',
        auth: true,
        summary:
          'What such an item sold for on campus (hand-off-confirmed deals, last 365 days); 204 under 3 deals',
        query: priceGuideQuery,
        response: priceGuideResponse,
        errors: [400],
      }),
      async (request, reply) => {
        const q = parseOr400(priceGuideQuery, request.query);
        const guide = await priceGuide(ctx, principalOf(request).campusId, ruleFor(q));
        if (!guide) return reply.code(204).send();
        return guide;
      },
    );
  });
}
