import { SSO_MESSAGES, type CampusInfo, type CampusSummary } from '@campus/contract';

/** A campus's university sign-in as the log-in and sign-up pages offer it (CampusInfo is one). */
export interface UniversityCampus {
  slug: string;
  name: string;
  /** The button's label, or null when the campus offers no university sign-in. */
  sso: { label: string } | null;
  /** Only university sign-in: the e-mail form gives way. */
  ssoOnly: boolean;
}

/**
 * The university sign-in the sign-up form offers (features.md §G): the chosen campus's, as the
 * picker's list tells it (the visit's own answer when it is the visit's campus); while nothing is
 * chosen (one campus, no list, or the picker cleared), the visit's campus's. Undefined: none.
 */
export function signUpUniversity(
  chosen: CampusSummary | null,
  visit: CampusInfo | undefined,
): UniversityCampus | undefined {
  if (chosen === null || chosen.slug === visit?.slug) return visit?.sso ? visit : undefined;
  if (!chosen.universitySignIn) return undefined;
  return {
    slug: chosen.slug,
    name: chosen.name,
    sso: { label: SSO_MESSAGES.continueWith(chosen.name) },
    ssoOnly: chosen.universitySignIn === 'only',
  };
}
