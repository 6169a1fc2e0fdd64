import { describe, expect, it } from 'vitest';
import type { CampusInfo, CampusSummary } from '@campus/contract';
import { signUpUniversity } from './university';

const LAKESHORE: CampusSummary = {
  slug: 'lakeshore',
  name: 'Lakeshore State',
  emailDomains: ['lakeshore.edu'],
  universitySignIn: 'offered',
};
const UW: CampusSummary = { slug: 'uw', name: 'University of Washington', emailDomains: ['uw.edu'] };
const MSU_VISIT: CampusInfo = {
  slug: 'msu',
  name: 'MSU',
  campusName: 'MSU',
  allowedDomains: ['msu.edu'],
  about: '',
  meetupSpots: [],
  timeZone: 'America/Detroit',
  sso: { type: 'saml', label: 'Continue with MSU account' },
  ssoOnly: false,
  moveOutSeason: null,
};

describe('signUpUniversity', () => {
  it("offers the visit's campus's sign-in while nothing else is chosen", () => {
    expect(signUpUniversity(null, MSU_VISIT)).toBe(MSU_VISIT);
    expect(signUpUniversity({ slug: 'msu', name: 'MSU', emailDomains: ['msu.edu'] }, MSU_VISIT)).toBe(
      MSU_VISIT,
    );
    expect(signUpUniversity(null, { ...MSU_VISIT, sso: null })).toBeUndefined();
    expect(signUpUniversity(null, undefined)).toBeUndefined();
  });

  it("follows the campus chosen in the picker, by the list's word", () => {
    expect(signUpUniversity(LAKESHORE, MSU_VISIT)).toEqual({
      slug: 'lakeshore',
      name: 'Lakeshore State',
      sso: { label: 'Continue with Lakeshore State account' },
      ssoOnly: false,
    });
    expect(signUpUniversity({ ...LAKESHORE, universitySignIn: 'only' }, MSU_VISIT)?.ssoOnly).toBe(true);
    expect(signUpUniversity(UW, MSU_VISIT)).toBeUndefined();
  });
});
