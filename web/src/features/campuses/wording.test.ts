import { describe, expect, it } from 'vitest';
import type { CampusSummary } from '@campus/contract';
import { signUpHint } from './wording';

const campus = (extra: Partial<CampusSummary>): CampusSummary => ({
  slug: 'lakeshore',
  name: 'Lakeshore State',
  emailDomains: ['lakeshore.edu'],
  ...extra,
});

describe('signUpHint', () => {
  it('names the addresses of a campus that signs up by e-mail only', () => {
    expect(signUpHint(campus({}))).toBe('Use your @lakeshore.edu address to sign up.');
  });

  it('offers the university account beside the address where the campus has both', () => {
    expect(signUpHint(campus({ universitySignIn: 'offered' }))).toBe(
      'Use your @lakeshore.edu address to sign up, or your Lakeshore State university account.',
    );
  });

  it('speaks only of the university account where the campus signs up through it alone', () => {
    expect(signUpHint(campus({ universitySignIn: 'only' }))).toBe(
      'Sign up with your Lakeshore State university account.',
    );
  });
});
