/** Many campuses for the benchmarks (features.md §E): their CAMPUSES file and rows. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CampusSettingsInput } from '@campus/contract';
import { loadCampuses, type Campus } from '../../server/src/campuses/index.js';
import { parseCampuses } from '../../server/src/campuses/settings.js';
import type { Db } from '../../server/src/db/connection.js';

/** `count` campuses c0001 … with their own domain c0001.bench.edu; the first is the default. */
export function benchCampuses(count: number, first?: CampusSettingsInput): CampusSettingsInput[] {
  const list: CampusSettingsInput[] = first ? [first] : [];
  for (let i = list.length; i < count; i++) {
    const slug = `c${String(i + 1).padStart(4, '0')}`;
    list.push({
      slug,
      name: `Campus ${slug}`,
      emailDomains: [`${slug}.bench.edu`],
      timeZone: 'America/Detroit',
    });
  }
  return list;
}

/**
 * Writes the CAMPUSES file into `dataDir` and creates the campuses in `db` exactly as the server's
 * start-up will (so rows seeded before it starts carry the ids it uses). Returns the file's path
 * (for the server's CAMPUSES) and the campuses in the file's order.
 */
export async function installCampuses(
  db: Db,
  dataDir: string,
  list: CampusSettingsInput[],
): Promise<{ file: string; campuses: Campus[] }> {
  const file = path.join(dataDir, 'campuses.json');
  writeFileSync(file, JSON.stringify(list));
  const parsed = parseCampuses(file, () => true);
  if (parsed.problems.length > 0) throw new Error(parsed.problems.join('\n'));
  const registry = await loadCampuses(db, parsed.campuses, Date.now());
  return { file, campuses: list.map((c) => registry.bySlug(c.slug) as Campus) };
}
