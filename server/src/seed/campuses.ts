import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_PROHIBITED_RULES, type CampusSettingsInput } from '@campus/contract';
import type { CampusSettings } from '../campuses/index.js';
import { loadConfig, type Config } from '../config.js';
import { DEMO_SECOND_CAMPUSES } from './data.js';

export interface DemoCampuses {
  /** The configuration to seed with: the server's, with CAMPUSES naming the demo's file if it had none. */
  config: Config;
  /**
   * The campuses file the server must be started with to serve the demo's campuses (the one the
   * seed wrote, or found from an earlier run), or null when CAMPUSES was set: the seed then fills
   * the operator's campuses and adds none.
   */
  file: string | null;
  /** Whether this run wrote the file. */
  written: boolean;
}

/** A configured campus as an entry of a CAMPUSES file (what config.ts parsed it from). */
function fileEntry(campus: CampusSettings): CampusSettingsInput {
  const defaults = new Set(DEFAULT_PROHIBITED_RULES.map((r) => r.rule));
  const own = campus.prohibitedRules.filter((r) => !defaults.has(r.rule));
  return {
    slug: campus.slug,
    name: campus.name,
    emailDomains: [...campus.emailDomains],
    timeZone: campus.timeZone,
    about: campus.about,
    meetupSpots: campus.meetupSpots,
    ...(own.length > 0 ? { prohibitedTerms: own.map((r) => ({ rule: r.rule, terms: [...r.terms] })) } : {}),
    ...(campus.moderators.length > 0 ? { moderators: campus.moderators } : {}),
    default: true,
  };
}

/**
 * The campuses the demo fills (features.md §E: a newcomer should see two closed marketplaces).
 * With CAMPUSES set, the operator's. Without it, the deployment has one campus (the CAMPUS_*
 * settings), and no setting can add a second: the seed writes `DATA_DIR/campuses.json` with that
 * campus, unchanged and still the default, plus a demo campus, and the server is started with
 * CAMPUSES naming it. `npm start` without it keeps working: the demo campus is then closed (its
 * rows stay, as for any campus that leaves the configuration) until CAMPUSES names the file again.
 */
export function demoCampuses(env: NodeJS.ProcessEnv = process.env): DemoCampuses {
  const config = loadConfig(env);
  if (env.CAMPUSES?.trim()) return { config, file: null, written: false };
  const file = path.join(config.dataDir, 'campuses.json');
  let written = false;
  if (!existsSync(file)) {
    const own = config.campuses[0] as CampusSettings;
    const second = DEMO_SECOND_CAMPUSES.find(
      (c) => c.slug !== own.slug && !c.emailDomains.some((d) => own.emailDomains.includes(d)),
    );
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify([fileEntry(own), ...(second ? [second] : [])], null, 2)}\n`);
    written = true;
  }
  // Parsed as the server will parse it: a file the server would refuse stops the seed too.
  return { config: loadConfig({ ...env, CAMPUSES: file }), file, written };
}
