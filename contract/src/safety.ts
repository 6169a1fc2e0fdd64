import { z } from './zod.js';
import { ERROR_CODES } from './errors.js';

/**
 * Section C of features.md: reports, blocks, moderation, rules at the door, the anti-scam guard,
 * student status, own-data export and account deletion.
 */

export const REPORT_TARGET_TYPES = ['LISTING', 'USER', 'MESSAGE'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_REASONS = ['SCAM', 'PROHIBITED', 'HARASSMENT', 'SPAM', 'MISLEADING', 'OTHER'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  SCAM: 'Scam or fraud',
  PROHIBITED: 'Prohibited item',
  HARASSMENT: 'Harassment',
  SPAM: 'Spam',
  MISLEADING: 'Misleading',
  OTHER: 'Something else',
};

export const REPORT_STATUSES = ['OPEN', 'DONE'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** What a moderator decided about a report (null while it is open). */
export const REPORT_OUTCOMES = ['DISMISSED', 'REMOVED', 'RESTORED', 'SUSPENDED'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** Every moderator action, as written to the audit log. */
export const MOD_ACTIONS = ['DISMISS', 'REMOVE_LISTING', 'RESTORE_LISTING', 'SUSPEND', 'UNSUSPEND'] as const;
export type ModAction = (typeof MOD_ACTIONS)[number];

/**
 * Anti-scam flags a chat message can carry (computed by the server, shown to the recipient only).
 */
export const SCAM_FLAGS = [
  'PAY_FIRST',
  'GIFT_CARD',
  'SHIPPING',
  'VERIFICATION_CODE',
  'STUDENT_ID',
  'OVERPAYMENT',
  'CONTACT_OFF_APP',
] as const;
export type ScamFlag = (typeof SCAM_FLAGS)[number];
export const SCAM_FLAG_LABELS: Record<ScamFlag, string> = {
  PAY_FIRST: 'Asks for payment before meeting',
  GIFT_CARD: 'Asks for gift cards',
  SHIPPING: 'Talks about shipping or a courier',
  VERIFICATION_CODE: 'Asks for a verification code',
  STUDENT_ID: 'Asks for a photo of your student ID',
  OVERPAYMENT: 'Asks you to refund an overpayment',
  CONTACT_OFF_APP: 'Moves the conversation off Campus Market early',
};

export const SAFETY_LIMITS = {
  reportDetailsMax: 1000,
  /** Distinct reporters with an open report that hide a listing from browse and search. */
  reportsToHide: 3,
  dailyListings: 20,
  dailyConversations: 20,
  moderationReasonMax: 500,
  suspendDaysMax: 3650,
  /** A phone number, e-mail or link in the first messages of a room is flagged. */
  earlyMessages: 10,
  defaultStudentStatusMonths: 12,
} as const;

export const SAFETY_MESSAGES = {
  listingRemovedTitle: (name: string) => `Your listing “${name}” was removed`,
  listingRemovedBody: (reason: string) =>
    `A moderator removed it: ${reason}. It no longer shows to anyone; your other listings are not affected.`,
  reportCreated: 'Thanks, a moderator will look at this. We do not tell the other student who reported.',
  reportDuplicate: 'You already reported this. A moderator will look at it soon.',
  reportTargetInvalid: 'Report a LISTING, USER or MESSAGE',
  reportReasonInvalid: 'Choose a reason: SCAM, PROHIBITED, HARASSMENT, SPAM, MISLEADING or OTHER',
  reportTargetIdInvalid: 'The target id must be a positive whole number',
  reportDetailsTooLong: 'Details can be at most 1000 characters',
  reportNotFound: 'There is nothing with this id that you can see',
  reportOwn: 'You cannot report yourself or your own listing',
  reportIdInvalid: 'The report id must be a positive whole number',
  reportMissing: 'This report does not exist',
  reportAlreadyDone: 'A moderator already decided on this report',
  blockSelf: 'You cannot block yourself',
  blocked: "You can't message this student",
  userIdInvalid: 'The user id must be a positive whole number',
  userNotFound: 'This student does not exist',
  notModerator: 'Only moderators can do this',
  reasonRequired: 'Give a reason (the student will see it)',
  reasonTooLong: 'The reason can be at most 500 characters',
  daysInvalid: 'Days must be a whole number from 1 to 3650 (leave it out to suspend until further notice)',
  listingAlreadyRemoved: 'This listing is already removed',
  listingNotHidden: 'This listing is visible: there is nothing to restore',
  suspendSelf: 'You cannot suspend yourself',
  notSuspended: 'This student is not suspended',
  dailyListings: 'You can post at most 20 new listings a day. Try again tomorrow.',
  dailyConversations: 'You can start at most 20 new conversations a day. Try again tomorrow.',
  statusLapsed:
    'Your student status needs renewing (it lasts a year). We e-mailed a code to your university address: enter it to continue.',
  passwordRequired: 'Enter your password to delete your account',
  passwordWrong: 'That password is not right',
  accountDeleted: 'Your account is deleted. Goodbye!',
  scamWarning: 'Never pay before you meet. Hand over on campus and confirm with the hand-off code.',
  deletedStudent: 'Deleted student',
  statusQueryInvalid: 'Status must be OPEN or DONE',
  pageInvalid: 'limit must be a whole number from 1 to 100; cursor must come from a Link header',
} as const;

export const dailyListingsMessage = (n: number) =>
  `You can post at most ${n} new listings a day. Try again tomorrow.`;
export const dailyConversationsMessage = (n: number) =>
  `You can start at most ${n} new conversations a day. Try again tomorrow.`;

/** The login refusal of a suspended student: until when and why. */
export function suspendedMessage(until: string | null, reason: string): string {
  const when = until
    ? `until ${new Date(until).toUTCString().replace(/:\d\d GMT$/, ' UTC')}`
    : 'until further notice';
  return `Your account is suspended ${when}. Reason: ${reason}`;
}

/** A listing or wanted post refused by a prohibited-terms rule: the message names the rule. */
export function prohibitedMessage(rule: string, term: string): string {
  return `This can't be posted on Campus Market: ${rule} are not allowed ("${term}"). Edit the text and try again.`;
}

/** Error codes of this section: the common ones, plus SUSPENDED on login (errors.ts). */
export const SAFETY_ERROR_CODES = {
  blocked: ERROR_CODES.forbidden,
  suspended: ERROR_CODES.suspended,
  prohibited: ERROR_CODES.validation,
  dailyLimit: ERROR_CODES.rateLimited,
  unverified: ERROR_CODES.unverified,
} as const;

/**
 * Prohibited-terms rules (features.md §C). PROHIBITED_TERMS replaces them:
 * `Rule name: term, term; Other rule: term` (the rule name is shown in the refusal).
 */
export interface ProhibitedRule {
  rule: string;
  terms: readonly string[];
}

export const DEFAULT_PROHIBITED_RULES: readonly ProhibitedRule[] = [
  {
    rule: 'weapons',
    terms: [
      'gun',
      'guns',
      'handgun',
      'pistol',
      'rifle',
      'shotgun',
      'firearm',
      'firearms',
      'ammo',
      'ammunition',
      'taser',
      'brass knuckles',
      'switchblade',
      'butterfly knife',
      'airsoft gun',
    ],
  },
  {
    rule: 'alcohol',
    terms: [
      'alcohol',
      'liquor',
      'booze',
      'vodka',
      'whiskey',
      'whisky',
      'tequila',
      'beer keg',
      'keg',
      'case of beer',
      'bottle of wine',
    ],
  },
  {
    rule: 'drugs and vapes',
    terms: [
      'weed',
      'marijuana',
      'cannabis',
      'thc',
      'edibles',
      'cocaine',
      'mdma',
      'lsd',
      'shrooms',
      'vape',
      'vapes',
      'vape pen',
      'juul',
      'nicotine pods',
      'dab pen',
    ],
  },
  {
    rule: 'fake IDs',
    terms: ['fake id', 'fake ids', 'fake license', 'novelty id', 'scannable id'],
  },
  {
    rule: 'exam answers, essay writing and other academic dishonesty',
    terms: [
      'exam answers',
      'test answers',
      'quiz answers',
      'answer key',
      'homework answers',
      'essay writing',
      'write your essay',
      'write your paper',
      'essay writer',
      'take your exam',
      'take your online class',
      'do your homework',
    ],
  },
  {
    rule: 'meal swipes, parking permits and student IDs',
    terms: [
      'meal swipe',
      'meal swipes',
      'parking permit',
      'parking permits',
      'parking pass',
      'student id',
      'student ids',
      'student card',
    ],
  },
  {
    rule: 'prescription drugs and contact lenses',
    terms: [
      'prescription',
      'adderall',
      'xanax',
      'ritalin',
      'oxycodone',
      'vyvanse',
      'contact lenses',
      'contact lens',
    ],
  },
];

const positiveId = (message: string) =>
  z.coerce.number({ error: message }).int(message).min(1, message).max(2147483647, message);

export const reportCreateSchema = z.object({
  targetType: z.enum(REPORT_TARGET_TYPES, { error: SAFETY_MESSAGES.reportTargetInvalid }),
  targetId: positiveId(SAFETY_MESSAGES.reportTargetIdInvalid),
  reason: z.enum(REPORT_REASONS, { error: SAFETY_MESSAGES.reportReasonInvalid }),
  details: z
    .string({ error: SAFETY_MESSAGES.reportDetailsTooLong })
    .max(SAFETY_LIMITS.reportDetailsMax, SAFETY_MESSAGES.reportDetailsTooLong)
    .optional()
    .default(''),
});
export type ReportCreatePayload = z.input<typeof reportCreateSchema>;

export const reportResponse = z.object({
  id: z.number().int(),
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.number().int(),
  reason: z.enum(REPORT_REASONS),
  details: z.string(),
  status: z.enum(REPORT_STATUSES),
  createdAt: z.string(),
});
export type Report = z.infer<typeof reportResponse>;

export const blockedUserResponse = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  blockedAt: z.string(),
});
export type BlockedUser = z.infer<typeof blockedUserResponse>;

export const blockResponse = z.object({ id: z.number().int(), blocked: z.boolean() });

export const modReasonSchema = z.object({
  reason: z
    .string({ error: SAFETY_MESSAGES.reasonRequired })
    .trim()
    .min(1, SAFETY_MESSAGES.reasonRequired)
    .max(SAFETY_LIMITS.moderationReasonMax, SAFETY_MESSAGES.reasonTooLong),
});

export const suspendSchema = modReasonSchema.extend({
  days: z
    .number({ error: SAFETY_MESSAGES.daysInvalid })
    .int(SAFETY_MESSAGES.daysInvalid)
    .min(1, SAFETY_MESSAGES.daysInvalid)
    .max(SAFETY_LIMITS.suspendDaysMax, SAFETY_MESSAGES.daysInvalid)
    .optional(),
});
export type SuspendPayload = z.input<typeof suspendSchema>;

export const modReportsQuery = z.object({
  status: z.enum(REPORT_STATUSES, { error: SAFETY_MESSAGES.statusQueryInvalid }).optional().default('OPEN'),
});

/** The reported thing as the moderator sees it. */
export const reportedContent = z.object({
  /** Listing name, student name, or message text. */
  title: z.string(),
  body: z.string(),
  /** The student behind the target (the seller, the student, the sender). */
  owner: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }).nullable(),
  /** LISTING: VISIBLE, REPORTED (hidden by reports) or REMOVED; USER: ACTIVE or SUSPENDED. */
  state: z.string(),
  imageUrl: z.string().nullable(),
  /** Gone since it was reported (deleted listing or account). */
  gone: z.boolean(),
});

/**
 * The campus a queue item or audit entry belongs to (features.md §E): a campus's moderators see
 * only their own, operators every campus's, and the page says which.
 */
export const campusRefResponse = z.object({ slug: z.string(), name: z.string() });
export type CampusRef = z.infer<typeof campusRefResponse>;

export const modReportGroupResponse = z.object({
  campus: campusRefResponse,
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.number().int(),
  content: reportedContent,
  reports: z.array(
    z.object({
      id: z.number().int(),
      reporter: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }),
      reason: z.enum(REPORT_REASONS),
      details: z.string(),
      status: z.enum(REPORT_STATUSES),
      outcome: z.enum(REPORT_OUTCOMES).nullable(),
      createdAt: z.string(),
    }),
  ),
  /** Newest report first; groups ordered by their newest report. */
  latestAt: z.string(),
});
export type ModReportGroup = z.infer<typeof modReportGroupResponse>;

export const auditEntryResponse = z.object({
  id: z.number().int(),
  campus: campusRefResponse,
  moderator: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }),
  action: z.enum(MOD_ACTIONS),
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.number().int(),
  reason: z.string(),
  /** Extra facts of the action (e.g. suspension end), as JSON text. */
  detail: z.string(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntryResponse>;

export const modActionResponse = z.object({ message: z.string() });

export const deleteAccountSchema = z.object({
  password: z
    .string({ error: SAFETY_MESSAGES.passwordRequired })
    .min(1, SAFETY_MESSAGES.passwordRequired)
    .max(200, SAFETY_MESSAGES.passwordWrong),
});

/** GET /users/me/export: table name -> the caller's rows (secrets such as hashes left out). */
export const exportResponse = z.object({
  exportedAt: z.string(),
  userId: z.number().int(),
  tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});
export type DataExport = z.infer<typeof exportResponse>;

/** GET /users/me/safety: what the web app mirrors (moderator link). */
export const safetyMeResponse = z.object({ moderator: z.boolean() });
