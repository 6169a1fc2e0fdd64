import { CAMPUS_MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { campusBaseUrl, campusOrigins } from './links.js';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  signUpStudent,
  type TestApp,
} from '../../test/helper.js';

const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/cm-config-test' };
const campus = (slug: string, domains: string[], extra: object = {}) => ({
  slug,
  name: slug.toUpperCase(),
  emailDomains: domains,
  timeZone: 'America/Detroit',
  ...extra,
});

describe('CAMPUSES at start-up', () => {
  it('refuses two campuses sharing an e-mail domain, with a line naming both', () => {
    const env = {
      ...base,
      CAMPUSES: JSON.stringify([campus('a', ['a.edu']), campus('b', ['b.edu', 'A.edu'])]),
    };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (err) {
      expect((err as ConfigError).problems).toContain(
        'CAMPUSES: the e-mail domain a.edu is listed by both a and b',
      );
    }
  });

  it('names the campus and field of a bad entry, and a bad time zone', () => {
    const env = {
      ...base,
      CAMPUSES: JSON.stringify([campus('a', ['a.edu'], { timeZone: 'Mars/Olympus' }), { slug: 'b' }]),
    };
    try {
      loadConfig(env);
      expect.unreachable();
    } catch (err) {
      const problems = (err as ConfigError).problems.join('\n');
      expect(problems).toContain('CAMPUSES 1.name');
      expect(problems).toContain('CAMPUSES 1.emailDomains');
    }
    const zone = {
      ...base,
      CAMPUSES: JSON.stringify([campus('a', ['a.edu'], { timeZone: 'Mars/Olympus' })]),
    };
    expect(() => loadConfig(zone)).toThrow(/CAMPUSES a.timeZone: must be an IANA time zone/);
  });

  it('without CAMPUSES makes one default campus of the single-campus settings', () => {
    const config = loadConfig({
      ...base,
      CAMPUS_NAME: 'Spartan U',
      ALLOWED_EMAIL_DOMAINS: 'msu.edu, @cse.msu.edu',
    });
    expect(config.campuses).toHaveLength(1);
    expect(config.campuses[0]).toMatchObject({
      slug: 'spartan-u',
      name: 'Spartan U',
      emailDomains: ['msu.edu', 'cse.msu.edu'],
      isDefault: true,
    });
  });

  it("adds a campus's own prohibited terms to the defaults", () => {
    const config = loadConfig({
      ...base,
      CAMPUSES: JSON.stringify([
        campus('a', ['a.edu'], { prohibitedTerms: [{ rule: 'keys', terms: ['dorm key'] }] }),
      ]),
    });
    const rules = config.campuses[0]!.prohibitedRules.map((r) => r.rule);
    expect(rules).toContain('weapons');
    expect(rules).toContain('keys');
  });
});

describe.each(dialects)('campuses on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, env: TWO_CAMPUSES });
  });
  afterAll(() => t.close());

  it('lists the campuses students can join for the picker', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/public/campuses' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { slug: 'msu', name: 'MSU', emailDomains: ['msu.edu'] },
      { slug: 'uw', name: 'University of Washington', emailDomains: ['uw.edu'] },
    ]);
  });

  it("answers the student's campus, else the Host's, else the default", async () => {
    const uwStudent = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    const mine = await asStudent(t, uwStudent, { method: 'GET', url: '/public/campus' });
    expect(mine.json()).toMatchObject({
      slug: 'uw',
      name: 'University of Washington',
      campusName: 'University of Washington',
      allowedDomains: ['uw.edu'],
      timeZone: 'America/Los_Angeles',
      sso: null,
    });
    expect(mine.json().meetupSpots).toEqual([
      { id: 'suzzallo', name: 'Suzzallo Library steps', description: 'By the main doors.' },
    ]);
    const byHost = await t.app.inject({
      method: 'GET',
      url: '/public/campus',
      headers: { host: 'market.uw.edu' },
    });
    expect(byHost.json().slug).toBe('uw');
    const fallback = await t.app.inject({ method: 'GET', url: '/public/campus' });
    expect(fallback.json()).toMatchObject({ slug: 'msu', campusName: 'MSU' });
  });

  it('files a sign-up under the campus of the address, subdomains included', async () => {
    const student = await signUpStudent(t, { email: `ada-${Date.now()}@cs.uw.edu` });
    expect(student.campusId).toBe(t.app.ctx.campuses.bySlug('uw')!.id);
    const res = await asStudent(t, student, { method: 'GET', url: '/public/campus' });
    expect(res.json().slug).toBe('uw');
  });

  it('refuses sign-up for a domain no campus has, saying the campus is not here yet', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/sign-up',
      payload: { firstName: 'A', lastName: 'B', email: 'a@ox.ac.uk', password: 'long-enough-pw-1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(CAMPUS_MESSAGES.campusNotOnMarket('ox.ac.uk', ['msu.edu', 'uw.edu']));
  });
});

describe.each(dialects)('a campus leaving CAMPUSES on %s', (dialect) => {
  it('is closed, not deleted: its students still log in, its sign-up is refused', async () => {
    const first = await createTestApp({ dialect, env: TWO_CAMPUSES });
    const student = await signUpStudent(first, { domain: TEST_CAMPUS_DOMAINS.uw });
    await first.app.close();
    const onlyMsu = JSON.stringify([campus('msu', ['msu.edu'])]);
    const second = await createTestApp({
      dialect,
      env: { CAMPUSES: onlyMsu },
      dataDir: first.dataDir,
      databaseUrl: first.databaseUrl,
    });
    try {
      expect((await second.app.inject({ method: 'GET', url: '/public/campuses' })).json()).toEqual([
        { slug: 'msu', name: 'MSU', emailDomains: ['msu.edu'] },
      ]);
      const login = await second.app.inject({
        method: 'POST',
        url: '/public/login',
        payload: { email: student.email, password: student.password },
      });
      expect(login.statusCode).toBe(200);
      const signUp = await second.app.inject({
        method: 'POST',
        url: '/public/sign-up',
        payload: { firstName: 'A', lastName: 'B', email: 'new@uw.edu', password: 'long-enough-pw-1' },
      });
      expect(signUp.statusCode).toBe(400);
      expect(signUp.json().message).toBe(CAMPUS_MESSAGES.campusClosed('University of Washington'));
    } finally {
      await second.close();
      await first.close().catch(() => undefined);
    }
  });
});

describe('campus links', () => {
  it("points a campus with hosts at its first host, keeping PUBLIC_URL's scheme and port", () => {
    expect(campusBaseUrl('https://market.example.edu', { hosts: ['market.uw.edu', 'uw.market.edu'] })).toBe(
      'https://market.uw.edu',
    );
    expect(campusBaseUrl('http://localhost:3000', { hosts: ['market.uw.edu'] })).toBe(
      'http://market.uw.edu:3000',
    );
    expect(campusBaseUrl('http://localhost:3000', { hosts: ['market.uw.edu:8443'] })).toBe(
      'http://market.uw.edu:8443',
    );
    expect(campusBaseUrl('https://market.example.edu', { hosts: [] })).toBe('https://market.example.edu');
  });

  it('accepts chat sockets from every page origin of the deployment', () => {
    expect(
      campusOrigins('https://market.example.edu', [
        { hosts: [] },
        { hosts: ['market.uw.edu', 'uw.market.edu'] },
      ]),
    ).toEqual(['https://market.example.edu', 'https://market.uw.edu', 'https://uw.market.edu']);
  });
});
