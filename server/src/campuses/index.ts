import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { acrossCampuses } from '../db/campus-scope.js';
import type { Db } from '../db/connection.js';
import { Campuses } from './registry.js';
import { campusesRoutes } from './routes.js';
import type { CampusSettings } from './settings.js';
import { syncCampuses } from './store.js';

// What other modules use of campuses.
export { Campuses, campusInfo, campusSummary, type Campus } from './registry.js';
export { campusFor, campusOfRequest } from './routes.js';
export { campusBaseUrl, campusOrigins } from './links.js';
export type { CampusSettings } from './settings.js';
export {
  acrossCampuses,
  currentCampusId,
  inCampus,
  requireCampusId,
  CAMPUS_OWNED_TABLES,
} from '../db/campus-scope.js';

/** Upserts the configured campuses (start-up, every process) and returns them as the app reads them. */
export async function loadCampuses(db: Db, settings: CampusSettings[], now: number): Promise<Campuses> {
  return new Campuses(await acrossCampuses(() => syncCampuses(db.kysely, settings, now)), settings);
}

export async function registerCampuses(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(campusesRoutes(ctx));
}
