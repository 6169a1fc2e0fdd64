import type { Kysely } from 'kysely';
import type { CampusesTable, Database } from '../db/schema.js';
import type { CampusSettings } from './settings.js';

export type CampusRow = Omit<CampusesTable, 'id'> & { id: number };

/**
 * The one writer of `campuses`. Upserts every configured campus by slug, closes the ones the
 * configuration no longer lists (their rows stay: a closed campus keeps its data and its students
 * can still log in, only sign-up is refused), and lets the default campus adopt the placeholder
 * campus 1 an upgraded single-campus database was given by migration 015, so all its rows become
 * that campus's. Idempotent: every process of a deployment runs it at start-up.
 */
export async function syncCampuses(
  db: Kysely<Database>,
  settings: CampusSettings[],
  now: number,
): Promise<CampusRow[]> {
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('campuses').select(['id', 'slug']).execute();
    const bySlug = new Map(existing.map((r) => [r.slug, r.id]));
    const placeholder = bySlug.get('');
    for (const campus of settings) {
      const values = {
        slug: campus.slug,
        name: campus.name,
        email_domains: JSON.stringify(campus.emailDomains),
        time_zone: campus.timeZone,
        about: campus.about,
        meetup_spots: JSON.stringify(campus.meetupSpots),
        prohibited_terms: JSON.stringify(campus.prohibitedRules),
        moderators: JSON.stringify(campus.moderators),
        hosts: JSON.stringify(campus.hosts),
        sso: campus.sso ? JSON.stringify(campus.sso) : null,
        move_out_season: campus.moveOutSeason ? JSON.stringify(campus.moveOutSeason) : null,
        is_default: campus.isDefault ? 1 : 0,
        closed_at: null,
        updated_at: now,
      };
      const id = bySlug.get(campus.slug) ?? (campus.isDefault ? placeholder : undefined);
      if (id !== undefined) {
        await trx.updateTable('campuses').set(values).where('id', '=', id).execute();
        bySlug.delete(campus.slug);
        if (id === placeholder) bySlug.delete('');
      } else {
        await trx
          .insertInto('campuses')
          .values({ ...values, created_at: now })
          .execute();
      }
    }
    // What remains was configured once and is no longer: closed, never deleted.
    const listed = new Set(settings.map((c) => c.slug));
    await trx
      .updateTable('campuses')
      .set({ is_default: 0, closed_at: now, updated_at: now })
      .where('closed_at', 'is', null)
      .where((eb) => (listed.size > 0 ? eb('slug', 'not in', [...listed]) : eb.lit(true)))
      .execute();
  });
  const rows = await db.selectFrom('campuses').selectAll().orderBy('id').execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
