import { z } from './zod.js';

/**
 * University sign-in (features.md §G): the campus's own identity provider (OIDC or SAML) signs the
 * student in. Every sentence a person reads about it lives here, the server's pages and the web's
 * buttons alike.
 */

export const SSO_LIMITS = {
  /** A started sign-in must come back from the university within this (the pending request's life). */
  pendingMinutes: 10,
  /** The one-time code at /sso/done#code=… is traded for a token within this, once. */
  exchangeSeconds: 60,
  /** Longest exchange code accepted (43 base64url characters are sent; anything far longer is junk). */
  exchangeCodeMax: 200,
} as const;

/** Affiliations that count as "a student" when a campus names none (eduPersonAffiliation's `student`). */
export const SSO_DEFAULT_STUDENT_VALUES = ['student'] as const;

/** The OIDC claim read for the affiliation when a campus names none. */
export const SSO_DEFAULT_AFFILIATION_CLAIM = 'eduperson_scoped_affiliation';

/** The SAML attribute read for the affiliation when a campus names none (eduPersonScopedAffiliation). */
export const SSO_DEFAULT_AFFILIATION_ATTRIBUTE = 'urn:oid:1.3.6.1.4.1.5923.1.1.1.9';

export const SSO_MESSAGES = {
  /** The button beside the e-mail form on login and sign-up. */
  continueWith: (campusName: string) => `Continue with ${campusName} account`,
  /** The campus picker's note on a campus that offers university sign-in beside e-mail sign-up… */
  pickerOffered: 'University sign-in available',
  /** …and on one that signs students up only through it (ssoOnly). */
  pickerOnly: 'University sign-in only',
  /** Between the university button and the e-mail form. */
  orWithEmail: 'or with your e-mail address',
  /** Shown on /sso/done while the code is traded. */
  finishing: 'Signing you in…',
  /** The refusal pages' link back. */
  backToLogin: 'Back to log in',
  /** Title of every refusal page. */
  refusedTitle: 'University sign-in did not work',
  /** /auth/sso/{slug}/… for a campus that is unknown, closed, or has no university sign-in. */
  notOffered:
    'This campus does not offer university sign-in on Campus Market. Log in with your e-mail address instead.',
  /** SP metadata asked of a campus that does not use SAML. */
  noMetadata: 'This campus does not sign in through SAML, so it has no service-provider metadata.',
  /** The campus's identity provider could not be reached or answered nonsense. */
  unavailable: (campusName: string) =>
    `${campusName}'s sign-in service could not be reached just now. Please try again in a few minutes.`,
  /** The callback's state/RelayState is unknown, used, expired, or from another browser. */
  stateInvalid:
    'This sign-in link has expired or was already used. Start again with the university button; it takes a few seconds.',
  /** Any failed check of what the university sent (signature, issuer, audience, nonce, expiry, replay). */
  responseInvalid:
    'The answer from your university could not be verified, so you were not signed in. Start again with the university button.',
  /** The student cancelled, or the university refused (its own reason is not shown). */
  idpRefused:
    'Your university did not complete the sign-in. If you cancelled, start again whenever you are ready.',
  /** The university sent no e-mail address (or said it is not verified). */
  emailMissing:
    'Your university did not share a verified e-mail address, so Campus Market cannot tell which student you are. Ask your university IT service to release your e-mail address to Campus Market.',
  /** The asserted address is of a domain no campus lists. */
  emailOutsideCampus: (campusName: string, domains: readonly string[]) =>
    `Your university account's address is not one of ${campusName}'s (${domains.map((d) => `@${d}`).join(', ')}), so it cannot sign you in here.`,
  /** The asserted address belongs to another campus of this deployment. */
  emailOfAnotherCampus: (campusName: string, otherName: string) =>
    `Your address belongs to ${otherName} on Campus Market, not ${campusName}. Sign in through ${otherName}'s page instead.`,
  /** Signed in fine, but the university does not list the person as a current student. */
  notAStudent: (campusName: string) =>
    `${campusName} did not confirm that you are a current student, so Campus Market cannot sign you in. Campus Market is for students only; if you are enrolled, ask your university IT service to check your affiliation.`,
  /** POST /auth/sso/exchange with a code that is wrong, used or older than 60 seconds. */
  exchangeInvalid: 'This sign-in has expired or was already used. Please sign in again.',
  /** E-mail sign-up on an ssoOnly campus. */
  signUpSsoOnly: (campusName: string) =>
    `${campusName} students join Campus Market with their university account: use "Continue with ${campusName} account" instead of an e-mail address.`,
  /** Password reset on an ssoOnly campus. */
  resetSsoOnly: (campusName: string) =>
    `${campusName} students sign in with their university account, so there is no Campus Market password to reset: use "Continue with ${campusName} account".`,
} as const;

/** POST /auth/sso/exchange. */
export const ssoExchangeSchema = z.object({
  code: z
    .string({ error: SSO_MESSAGES.exchangeInvalid })
    .trim()
    .min(1, SSO_MESSAGES.exchangeInvalid)
    .max(SSO_LIMITS.exchangeCodeMax, SSO_MESSAGES.exchangeInvalid),
});
export type SsoExchangePayload = z.infer<typeof ssoExchangeSchema>;
