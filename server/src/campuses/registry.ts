import type {
  CampusInfo,
  CampusSso,
  CampusSummary,
  MeetupSpot,
  MoveOutSeason,
  ProhibitedRule,
} from '@campus/contract';
import { SSO_MESSAGES } from '@campus/contract';
import { currentCampusId } from '../db/campus-scope.js';
import type { CampusRow } from './store.js';

/** A campus of this deployment as the app uses it: the settings plus its id and whether it is open. */
export interface Campus {
  id: number;
  slug: string;
  name: string;
  emailDomains: readonly string[];
  timeZone: string;
  about: string;
  meetupSpots: readonly MeetupSpot[];
  /** The rules listings, wanted posts and chats are checked against (defaults plus the campus's own). */
  prohibitedRules: readonly ProhibitedRule[];
  /** Lower-case addresses of the campus's moderators. */
  moderators: readonly string[];
  hosts: readonly string[];
  sso: CampusSso | null;
  /**
   * Only university sign-in (features.md §G): read from the configuration like linkPreviews; a
   * closed campus (or one without `sso`) is never ssoOnly.
   */
  ssoOnly: boolean;
  /**
   * Shared listing links preview the item (CAMPUSES `linkPreviews`, default on). Not stored: it is
   * read from the configuration every process starts with; a closed campus keeps the default.
   */
  linkPreviews: boolean;
  moveOutSeason: MoveOutSeason | null;
  isDefault: boolean;
  closed: boolean;
}

function fromRow(row: CampusRow, configured: { linkPreviews: boolean; ssoOnly: boolean }): Campus {
  const sso = row.sso ? (JSON.parse(row.sso) as CampusSso) : null;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    emailDomains: JSON.parse(row.email_domains) as string[],
    timeZone: row.time_zone,
    about: row.about,
    meetupSpots: JSON.parse(row.meetup_spots) as MeetupSpot[],
    prohibitedRules: JSON.parse(row.prohibited_terms) as ProhibitedRule[],
    moderators: JSON.parse(row.moderators) as string[],
    hosts: JSON.parse(row.hosts) as string[],
    sso,
    ssoOnly: configured.ssoOnly && sso !== null && row.closed_at === null,
    linkPreviews: configured.linkPreviews,
    moveOutSeason: row.move_out_season ? (JSON.parse(row.move_out_season) as MoveOutSeason) : null,
    isDefault: row.is_default === 1,
    closed: row.closed_at !== null,
  };
}

/**
 * Every campus of the deployment, read once at start-up (campuses change only with the
 * configuration, which takes a restart). Lookups are maps: they run on every request.
 */
export class Campuses {
  private readonly byIdMap = new Map<number, Campus>();

  private readonly bySlugMap = new Map<string, Campus>();

  private readonly byDomain = new Map<string, Campus>();

  private readonly byHost = new Map<string, Campus>();

  readonly default: Campus;

  /** Sorted once: campuses change only with a restart, and the picker asks on every visit. */
  private readonly openByName: readonly Campus[];

  /** `settings`: what the configuration says beyond the rows (link previews, ssoOnly), by slug. */
  constructor(
    rows: CampusRow[],
    settings: readonly { slug: string; linkPreviews: boolean; ssoOnly?: boolean }[] = [],
  ) {
    const configured = new Map(settings.map((s) => [s.slug, s]));
    const campuses = rows
      .filter((r) => r.slug !== '')
      .map((r) =>
        fromRow(r, {
          linkPreviews: configured.get(r.slug)?.linkPreviews ?? true,
          ssoOnly: configured.get(r.slug)?.ssoOnly ?? false,
        }),
      );
    for (const campus of campuses) {
      this.byIdMap.set(campus.id, campus);
      this.bySlugMap.set(campus.slug, campus);
      // Open campuses first: a domain a closed campus once had belongs to the open one now.
      if (!campus.closed) {
        for (const d of campus.emailDomains) this.byDomain.set(d, campus);
        for (const h of campus.hosts) this.byHost.set(h, campus);
      }
    }
    for (const campus of campuses.filter((c) => c.closed)) {
      for (const d of campus.emailDomains) if (!this.byDomain.has(d)) this.byDomain.set(d, campus);
    }
    const fallback = campuses.find((c) => c.isDefault && !c.closed) ?? campuses.find((c) => !c.closed);
    if (!fallback) throw new Error('No open campus is configured (CAMPUSES or CAMPUS_NAME)');
    this.default = fallback;
    this.openByName = campuses.filter((c) => !c.closed).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Every campus, closed ones included, in id order. */
  all(): Campus[] {
    return [...this.byIdMap.values()];
  }

  /** The campuses students can join, in name order (the "find your campus" picker). */
  open(): readonly Campus[] {
    return this.openByName;
  }

  byId(id: number): Campus {
    const campus = this.byIdMap.get(id);
    if (!campus) throw new Error(`Unknown campus ${id}`);
    return campus;
  }

  bySlug(slug: string): Campus | undefined {
    return this.bySlugMap.get(slug.toLowerCase());
  }

  /** The campus of an address: the longest listed domain the address's domain ends with. */
  forEmail(email: string): Campus | undefined {
    let domain = (email.split('@')[1] ?? '').toLowerCase();
    while (domain.includes('.')) {
      const campus = this.byDomain.get(domain);
      if (campus) return campus;
      domain = domain.slice(domain.indexOf('.') + 1);
    }
    return undefined;
  }

  /** The campus whose `hosts` list this Host header (port ignored), if any. */
  forHost(host: string | undefined): Campus | undefined {
    if (!host) return undefined;
    return this.byHost.get(host.toLowerCase().replace(/:\d+$/, ''));
  }

  /** The campus of the work in hand (db/campus-scope.ts); the default outside any campus. */
  current(): Campus {
    const id = currentCampusId();
    return id === undefined ? this.default : this.byId(id);
  }

  /** Whether this address moderates this campus (its moderators, or an operator of every campus). */
  isModerator(campus: Campus, email: string, operators: readonly string[]): boolean {
    const address = email.toLowerCase();
    return operators.includes(address) || campus.moderators.includes(address);
  }
}

export function campusSummary(campus: Campus): CampusSummary {
  const summary: CampusSummary = {
    slug: campus.slug,
    name: campus.name,
    emailDomains: [...campus.emailDomains],
  };
  // University sign-in as campusInfo offers it (none on a closed campus); absent where there is none.
  if (campus.sso && !campus.closed) summary.universitySignIn = campus.ssoOnly ? 'only' : 'offered';
  return summary;
}

export function campusInfo(campus: Campus): CampusInfo {
  return {
    slug: campus.slug,
    name: campus.name,
    campusName: campus.name,
    allowedDomains: [...campus.emailDomains],
    about: campus.about,
    meetupSpots: campus.meetupSpots.map((s) => ({ ...s })),
    timeZone: campus.timeZone,
    // University sign-in (features.md §G); a closed campus offers none (its routes answer 404).
    sso:
      campus.sso && !campus.closed
        ? { type: campus.sso.type, label: SSO_MESSAGES.continueWith(campus.name) }
        : null,
    ssoOnly: campus.ssoOnly,
    moveOutSeason: campus.moveOutSeason ? { ...campus.moveOutSeason } : null,
  };
}
