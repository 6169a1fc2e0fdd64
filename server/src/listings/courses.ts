import {
  COURSE_LIST_MAX,
  SELLING_MESSAGES,
  courseBooksResponse,
  courseListQueryDoc,
  normalizeCourseCode,
} from '@campus/contract';
import type { CourseBooks } from '@campus/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { principalOf } from '../http/auth.js';
import { badRequest } from '../http/errors.js';
import { doc } from '../http/openapi.js';
import type { ListingsService } from './service.js';

/** What a course list is asked for: one campus, minus the sellers the viewer blocked. */
export interface CourseQuery {
  campusId: number;
  excludeSellers: readonly number[];
  /** One course only (normalised). */
  courseCode?: string;
}

/**
 * The campus's course codes with unsold books, most books first (then by code). Counts what the
 * course page lists: unsold, not removed by a moderator, not by a seller the viewer blocked.
 * Reads the (campus, category, is_sold, …) index of migration 016: a campus's unsold books only.
 */
export async function courseBooks(db: Kysely<Database>, q: CourseQuery): Promise<CourseBooks[]> {
  let query = db
    .selectFrom('listings')
    .select(['course_code', (eb) => eb.fn.countAll<number | string>().as('books')])
    .where('campus_id', '=', q.campusId)
    .where('category', '=', 'BOOKS')
    .where('is_sold', '=', 0)
    .where('moderation', 'is', null)
    .where('course_code', 'is not', null);
  if (q.courseCode !== undefined) query = query.where('course_code', '=', q.courseCode);
  if (q.excludeSellers.length > 0) query = query.where('seller_id', 'not in', [...q.excludeSellers]);
  const rows = await query
    .groupBy('course_code')
    .orderBy('books', 'desc')
    .orderBy('course_code')
    .limit(COURSE_LIST_MAX)
    .execute();
  // PostgreSQL answers count(*) as a string (bigint).
  return rows.map((r) => ({ courseCode: r.course_code as string, books: Number(r.books) }));
}

/** `code` of the query: absent, or a course code in any spacing and case; anything else is a 400. */
function parseCode(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const code = typeof raw === 'string' ? normalizeCourseCode(raw) : null;
  if (!code) throw badRequest(SELLING_MESSAGES.courseCodeInvalid);
  return code;
}

/** GET /listings/courses, inside the listings routes (their auth hook: students only). */
export function registerCourseRoutes(app: FastifyInstance, service: ListingsService): void {
  app.get(
    '/listings/courses',
    doc({
      tag: 'listings',
      auth: true,
      summary: "Course codes of the caller's campus with books for sale, most books first",
      query: courseListQueryDoc,
      response: z.array(courseBooksResponse),
      errors: [400],
    }),
    async (request) => {
      const courseCode = parseCode((request.query as Record<string, unknown>).code);
      return service.courseBooks(principalOf(request), courseCode);
    },
  );
}
