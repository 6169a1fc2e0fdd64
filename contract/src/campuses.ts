import { z } from './zod.js';
import type { MeetupSpot } from './deals.js';
import { meetupSpotResponse, meetupSpotsSchema } from './deals.js';
import { moveOutSeasonResponse, moveOutSeasonSchema } from './moving-out.js';
import type { MoveOutSeason } from './moving-out-rules.js';

/**
 * Campuses (features.md §E): one deployment serves many, each a closed marketplace. The operator
 * lists them in CAMPUSES (a JSON file or value); without it the CAMPUS_* settings make one.
 */

export const CAMPUS_LIMITS = {
  slugMax: 40,
  nameMax: 80,
  domainsMax: 20,
  hostsMax: 20,
  aboutMax: 2000,
  moderatorsMax: 100,
} as const;

export const CAMPUS_MESSAGES = {
  /** Sign-up with an address no campus lists. */
  campusNotOnMarket: (domain: string, domains: readonly string[]) =>
    domains.length > 0 && domains.length <= 5
      ? `The campus of @${domain} is not on Campus Market yet. Sign up with your university e-mail address (${domains.map((d) => `@${d}`).join(', ')}).`
      : `The campus of @${domain} is not on Campus Market yet. Sign up with your university e-mail address; if your campus is not under "Find your campus", it has not joined yet.`,
  /** Sign-up for a campus the operator closed (removed from CAMPUSES). */
  campusClosed: (name: string) =>
    `${name} is closed on Campus Market: new sign-ups are not accepted. Existing students can still log in.`,
} as const;

const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((d) => d.replace(/^@/, ''))
  .pipe(
    z
      .string()
      .min(3)
      .max(253)
      .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'must be a domain such as msu.edu'),
  );

const prohibitedRuleSchema = z.object({
  rule: z.string().trim().min(1).max(60),
  terms: z.array(z.string().trim().min(1).max(60)).min(1).max(200),
});

/** University sign-in (features.md §G); validated here so a campus file is checked whole. */
export const campusSsoSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('oidc'),
    issuer: z.url(),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    scopes: z.array(z.string().min(1)).optional(),
    affiliationClaim: z.string().min(1).optional(),
    studentValues: z.array(z.string().min(1)).optional(),
  }),
  z.object({
    type: z.literal('saml'),
    entryPoint: z.url(),
    idpCertificate: z.string().min(1),
    entityId: z.string().min(1),
    affiliationAttribute: z.string().min(1).optional(),
    studentValues: z.array(z.string().min(1)).optional(),
  }),
]);
export type CampusSso = z.infer<typeof campusSsoSchema>;

/** One entry of CAMPUSES. `default: true` marks the campus a request with no other clue gets. */
export const campusSettingsSchema = z.object({
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(CAMPUS_LIMITS.slugMax)
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes, e.g. msu'),
  name: z.string().trim().min(1).max(CAMPUS_LIMITS.nameMax),
  emailDomains: z.array(domainSchema).min(1).max(CAMPUS_LIMITS.domainsMax),
  timeZone: z.string().trim().min(1),
  about: z.string().trim().max(CAMPUS_LIMITS.aboutMax).optional(),
  meetupSpots: meetupSpotsSchema.optional(),
  /** The campus's own rules, added to the defaults every campus has. */
  prohibitedTerms: z.array(prohibitedRuleSchema).max(50).optional(),
  moderators: z.array(z.string().trim().toLowerCase().email()).max(CAMPUS_LIMITS.moderatorsMax).optional(),
  hosts: z.array(z.string().trim().toLowerCase().min(1).max(253)).max(CAMPUS_LIMITS.hostsMax).optional(),
  sso: campusSsoSchema.nullable().optional(),
  /**
   * Students of this campus join only through university sign-in (features.md §G): e-mail sign-up
   * and password reset are refused with a message pointing to it. Needs `sso`. Default false.
   */
  ssoOnly: z.boolean().optional(),
  /**
   * Whether a shared listing link previews the item (name, price, cover photo) to chat apps and to
   * a visitor who is not logged in. Default on; off, the link shows the generic Campus Market card.
   */
  linkPreviews: z.boolean().optional(),
  /** The move-out season (features.md §H): the dashboard leads with the moving-out shelf. */
  moveOutSeason: moveOutSeasonSchema.nullable().optional(),
  default: z.boolean().optional(),
});
export type CampusSettingsInput = z.input<typeof campusSettingsSchema>;

export const campusesFileSchema = z.array(campusSettingsSchema).min(1).max(10_000);

/**
 * University sign-in on a campus (features.md §G), as the campus picker tells it: `offered` beside
 * e-mail sign-up, `only` instead of it (the campus is ssoOnly).
 */
export const UNIVERSITY_SIGN_IN = ['offered', 'only'] as const;
export type UniversitySignIn = (typeof UNIVERSITY_SIGN_IN)[number];

/** GET /public/campuses: the "find your campus" picker (open campuses only). */
export interface CampusSummary {
  slug: string;
  name: string;
  emailDomains: string[];
  /** Absent on a campus without university sign-in (most), so the long list stays small. */
  universitySignIn?: UniversitySignIn;
}

/** GET /public/campus: the campus of the request (the student's, else the Host's, else the default). */
export interface CampusInfo {
  slug: string;
  name: string;
  /** Equal to `name`; kept for clients that read it. */
  campusName: string;
  allowedDomains: string[];
  about: string;
  /** Where students are encouraged to meet (features.md §A). */
  meetupSpots: MeetupSpot[];
  /** IANA zone: quiet hours and the times in e-mails. */
  timeZone: string;
  /** University sign-in offered on this campus (features.md §G), or null. */
  sso: { type: 'oidc' | 'saml'; label: string } | null;
  /** Only university sign-in is offered (no e-mail sign-up or password reset); false without `sso`. */
  ssoOnly: boolean;
  /** The move-out season (features.md §H), or null. */
  moveOutSeason: MoveOutSeason | null;
}

export const campusSummaryResponse = z.object({
  slug: z.string(),
  name: z.string(),
  emailDomains: z.array(z.string()),
  universitySignIn: z
    .enum(UNIVERSITY_SIGN_IN)
    .optional()
    .describe(
      'University sign-in: `offered` beside e-mail sign-up, `only` instead of it; absent when the campus has none',
    ),
}) satisfies z.ZodType<CampusSummary>;

export const campusesResponse = z.array(campusSummaryResponse);

export const campusResponse = z.object({
  slug: z.string(),
  name: z.string(),
  campusName: z.string(),
  allowedDomains: z.array(z.string()),
  about: z.string(),
  meetupSpots: z.array(meetupSpotResponse),
  timeZone: z.string(),
  sso: z.object({ type: z.enum(['oidc', 'saml']), label: z.string() }).nullable(),
  ssoOnly: z.boolean(),
  moveOutSeason: moveOutSeasonResponse,
}) satisfies z.ZodType<CampusInfo>;
