import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
/**
 * Two campuses for isolation tests (features.md §E): `createTestApp({ env: TWO_CAMPUSES })`, then
 * `createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw })` for a student of the second campus.
 * MSU stays the default campus (the single-campus settings' name and domain), so a test written
 * for one campus behaves the same with both configured.
 */
export const TEST_CAMPUS_DOMAINS = { msu: 'msu.edu', uw: 'uw.edu' } as const;

export const TEST_CAMPUSES = [
  {
    slug: 'msu',
    name: 'MSU',
    emailDomains: ['msu.edu'],
    timeZone: 'America/Detroit',
    default: true,
  },
  {
    slug: 'uw',
    name: 'University of Washington',
    emailDomains: ['uw.edu'],
    timeZone: 'America/Los_Angeles',
    hosts: ['market.uw.edu'],
    meetupSpots: [{ id: 'suzzallo', name: 'Suzzallo Library steps', description: 'By the main doors.' }],
    prohibitedTerms: [{ rule: 'dorm keys', terms: ['dorm key'] }],
    moderators: ['mod@uw.edu'],
  },
];

/** The env of a test app serving both campuses (merge more settings into it as a test needs). */
export const TWO_CAMPUSES: Record<string, string> = { CAMPUSES: JSON.stringify(TEST_CAMPUSES) };

/**
 * The campus of a user, for fixtures that write rows straight into the database (a row written
 * outside any campus is refused: db/campus-scope.ts). Reads as the test's own connection.
 */
export async function campusOfUser(
  t: { app: { ctx: { db: { kysely: Kysely<Database> } } } },
  userId: number,
): Promise<number> {
  const row = await t.app.ctx.db.kysely
    .selectFrom('users')
    .select('campus_id')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.campus_id);
}
