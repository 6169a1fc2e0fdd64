import { existsSync, readFileSync } from 'node:fs';
import {
  DEFAULT_MEETUP_SPOTS,
  DEFAULT_PROHIBITED_RULES,
  campusesFileSchema,
  type CampusSso,
  type MeetupSpot,
  type MoveOutSeason,
  type ProhibitedRule,
} from '@campus/contract';

/**
 * One campus as the deployment is configured (features.md §E): from CAMPUSES, or from the
 * CAMPUS_* settings of a single-campus deployment. Lists are normalised (lower-case domains,
 * hosts and moderators) and prohibited rules are final (what the checks apply).
 */
export interface CampusSettings {
  slug: string;
  name: string;
  emailDomains: string[];
  timeZone: string;
  about: string;
  meetupSpots: MeetupSpot[];
  prohibitedRules: ProhibitedRule[];
  moderators: string[];
  hosts: string[];
  sso: CampusSso | null;
  /** Only university sign-in: e-mail sign-up and password reset are refused (features.md §G). */
  ssoOnly: boolean;
  /** Shared listing links preview the item to anyone (default on; docs/decisions.md). */
  linkPreviews: boolean;
  /** The move-out season (features.md §H): the dashboard leads with the moving-out shelf. */
  moveOutSeason: MoveOutSeason | null;
  isDefault: boolean;
}

/** The single campus of a deployment without CAMPUSES, from today's settings. */
export interface LegacyCampus {
  slug: string;
  name: string;
  emailDomains: string[];
  timeZone: string;
  about: string | undefined;
  meetupSpots: MeetupSpot[] | undefined;
  /** PROHIBITED_TERMS replaces the default rules (features.md §C); undefined keeps them. */
  prohibitedRules: readonly ProhibitedRule[] | undefined;
  moderators: string[];
}

export function defaultAbout(name: string): string {
  return `Campus Market is built by students for ${name} students: a fee-free place to pass on what you no longer need to someone a short walk away.`;
}

/** A URL-safe slug from a campus name ("Michigan State" → "michigan-state"). */
export function slugFor(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return slug === '' ? 'campus' : slug;
}

export function legacyCampus(legacy: LegacyCampus): CampusSettings {
  return {
    slug: legacy.slug,
    name: legacy.name,
    emailDomains: legacy.emailDomains,
    timeZone: legacy.timeZone,
    about: legacy.about ?? defaultAbout(legacy.name),
    meetupSpots: legacy.meetupSpots ?? DEFAULT_MEETUP_SPOTS.map((s) => ({ ...s })),
    prohibitedRules: [...(legacy.prohibitedRules ?? DEFAULT_PROHIBITED_RULES)],
    moderators: legacy.moderators,
    hosts: [],
    sso: null,
    ssoOnly: false,
    linkPreviews: true,
    moveOutSeason: null,
    isDefault: true,
  };
}

/**
 * CAMPUSES: a JSON array, or the path of a file holding one. Returns the problems found (each a
 * line naming the campus and the field) instead of throwing, so start-up lists them all.
 */
export function parseCampuses(
  raw: string,
  isTimeZone: (tz: string) => boolean,
): { campuses: CampusSettings[]; problems: string[] } {
  let text = raw.trim();
  if (!text.startsWith('[')) {
    if (!existsSync(text))
      return {
        campuses: [],
        problems: [`CAMPUSES: no such file ${text} (give a JSON array or a file path)`],
      };
    text = readFileSync(text, 'utf8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      campuses: [],
      problems: ['CAMPUSES: must be JSON: [{"slug", "name", "emailDomains", "timeZone", …}]'],
    };
  }
  const parsed = campusesFileSchema.safeParse(value);
  if (!parsed.success) {
    return {
      campuses: [],
      problems: parsed.error.issues.map((i) => `CAMPUSES ${i.path.join('.')}: ${i.message}`),
    };
  }
  const problems: string[] = [];
  const explicitDefault = parsed.data.findIndex((c) => c.default === true);
  const campuses = parsed.data.map((c, index): CampusSettings => {
    if (c.ssoOnly === true && !c.sso) {
      problems.push(`CAMPUSES ${c.slug}.ssoOnly: needs "sso" (university sign-in) to be configured`);
    }
    if (!isTimeZone(c.timeZone)) {
      problems.push(`CAMPUSES ${c.slug}.timeZone: must be an IANA time zone such as America/Detroit`);
    }
    return {
      slug: c.slug,
      name: c.name,
      emailDomains: [...new Set(c.emailDomains)],
      timeZone: c.timeZone,
      about: c.about ?? defaultAbout(c.name),
      meetupSpots: c.meetupSpots ?? DEFAULT_MEETUP_SPOTS.map((s) => ({ ...s })),
      // Every campus keeps the default rules; its own are added (features.md §E).
      prohibitedRules: [...DEFAULT_PROHIBITED_RULES, ...(c.prohibitedTerms ?? [])],
      moderators: [...new Set(c.moderators ?? [])],
      hosts: [...new Set(c.hosts ?? [])],
      sso: c.sso ?? null,
      ssoOnly: c.ssoOnly ?? false,
      linkPreviews: c.linkPreviews ?? true,
      moveOutSeason: c.moveOutSeason ?? null,
      isDefault: explicitDefault === -1 ? index === 0 : index === explicitDefault,
    };
  });
  problems.push(...overlaps(campuses));
  if (parsed.data.filter((c) => c.default === true).length > 1) {
    problems.push('CAMPUSES: at most one campus may say "default": true');
  }
  return { campuses, problems };
}

/** Slugs, e-mail domains and hosts each belong to one campus; a line per clash names both. */
function overlaps(campuses: CampusSettings[]): string[] {
  const problems: string[] = [];
  const seen = {
    slug: new Map<string, string>(),
    domain: new Map<string, string>(),
    host: new Map<string, string>(),
  };
  const claim = (kind: keyof typeof seen, key: string, slug: string, what: string) => {
    const owner = seen[kind].get(key);
    if (owner !== undefined && owner !== slug)
      problems.push(`CAMPUSES: ${what} ${key} is listed by both ${owner} and ${slug}`);
    else if (owner === slug && kind === 'slug') problems.push(`CAMPUSES: the slug ${key} is listed twice`);
    seen[kind].set(key, slug);
  };
  for (const c of campuses) {
    claim('slug', c.slug, c.slug, 'the slug');
    for (const d of c.emailDomains) claim('domain', d, c.slug, 'the e-mail domain');
    for (const h of c.hosts) claim('host', h, c.slug, 'the host');
  }
  return problems;
}
