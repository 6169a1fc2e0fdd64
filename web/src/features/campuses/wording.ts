/** How the web app speaks of a campus and what it accepts (features.md §E). */
import type { CampusSummary } from '@campus/contract';

/** "@uw.edu", "@osu.edu or @buckeyemail.osu.edu", "@a.edu, @b.edu or @c.edu". */
export function addressList(domains: readonly string[]): string {
  const at = domains.map((d) => `@${d}`);
  if (at.length <= 1) return at[0] ?? '';
  return `${at.slice(0, -1).join(', ')} or ${at[at.length - 1]}`;
}

/** What a campus accepts, as the picker and the sign-up form say it: "Use your @uw.edu address". */
export function addressHint(domains: readonly string[]): string {
  if (domains.length === 0) return 'Use your university e-mail address';
  return `Use your ${addressList(domains)} address`;
}

/** How the chosen campus signs students up: its addresses, its university account, or either. */
export function signUpHint(campus: CampusSummary): string {
  if (campus.universitySignIn === 'only') return `Sign up with your ${campus.name} university account.`;
  const byAddress = `${addressHint(campus.emailDomains)} to sign up`;
  return campus.universitySignIn === 'offered'
    ? `${byAddress}, or your ${campus.name} university account.`
    : `${byAddress}.`;
}

/**
 * The landing page's promise: "Only for verified MSU students"; a name that starts with "The"
 * reads better after "of" ("Only for verified students of The Ohio State University").
 */
export function onlyVerifiedStudents(name: string | null): string {
  if (!name) return 'Only for verified university students';
  return /^the\s/i.test(name)
    ? `Only for verified students of ${name}`
    : `Only for verified ${name} students`;
}
