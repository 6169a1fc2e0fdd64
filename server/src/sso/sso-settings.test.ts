import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SSO_MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { TEST_CAMPUSES, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { startTestIdp } from '../../test/oidc-provider.js';
import {
  arriveAt,
  campusesWithSso,
  exchange,
  exchangeCodeOf,
  msuCallback,
  startSignIn,
} from '../../test/sso.js';

const oidc = (issuer: string) => ({
  type: 'oidc',
  issuer,
  clientId: 'cm',
  clientSecret: 'secret-of-the-client',
});

describe.each(dialects)('ssoOnly campuses (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    // Sign-up and reset never contact the university: an unreachable issuer is enough here.
    t = await createTestApp({
      dialect,
      env: campusesWithSso(
        { issuer: 'http://127.0.0.1:9', clientId: 'cm', clientSecret: 'x' },
        { ssoOnly: true },
      ),
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });

  it('says so on GET /public/campus, and the campus picker says so too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/public/campus' });
    expect(res.json()).toMatchObject({ slug: 'msu', ssoOnly: true, sso: { type: 'oidc' } });
    const list = await t.app.inject({ method: 'GET', url: '/public/campuses' });
    expect(list.json()).toEqual([
      { slug: 'msu', name: 'MSU', emailDomains: ['msu.edu'], universitySignIn: 'only' },
      { slug: 'uw', name: 'University of Washington', emailDomains: ['uw.edu'] },
    ]);
  });

  it('refuses e-mail sign-up with a message pointing to the university sign-in; other campuses keep it', async () => {
    const msu = await post('/public/sign-up', {
      firstName: 'A',
      lastName: 'B',
      email: 'newcomer@msu.edu',
      password: 'long-enough-pass-1',
    });
    expect(msu.statusCode).toBe(403);
    expect(msu.json().message).toBe(SSO_MESSAGES.signUpSsoOnly('MSU'));
    const uw = await post('/public/sign-up', {
      firstName: 'A',
      lastName: 'B',
      email: 'newcomer@uw.edu',
      password: 'long-enough-pass-1',
    });
    expect(uw.statusCode).toBe(201);
  });

  it('refuses password reset (request and code) the same way, whether or not the address has an account', async () => {
    for (const email of ['nobody@msu.edu', 'someone@msu.edu']) {
      const forgot = await post('/public/password/forgot', { email });
      expect(forgot.statusCode).toBe(403);
      expect(forgot.json().message).toBe(SSO_MESSAGES.resetSsoOnly('MSU'));
      const confirm = await post('/public/password/forgot/verify', {
        email,
        token: 123456,
        newPassword: 'another-long-pass-2',
      });
      expect(confirm.statusCode).toBe(403);
      expect(confirm.json().message).toBe(SSO_MESSAGES.resetSsoOnly('MSU'));
    }
    expect((await post('/public/password/forgot', { email: 'someone@uw.edu' })).statusCode).toBe(200);
  });
});

describe('university sign-in settings at start-up', () => {
  const base = {
    NODE_ENV: 'production',
    SMTP_URL: 'smtp://127.0.0.1:25',
    JWT_SECRET: 'production-secret-that-is-long-enough-0123',
    DATA_DIR: '/tmp/cm-sso-config-test',
  };
  const withSso = (sso: object, extra: object = {}) =>
    JSON.stringify([{ ...TEST_CAMPUSES[0], sso, ...extra }, TEST_CAMPUSES[1]]);
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
      return [];
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
  };

  it('in production, refuses an http: issuer or SAML entry point, one line naming the campus', () => {
    expect(
      problemsOf({
        ...base,
        PUBLIC_URL: 'https://market.example.edu',
        CAMPUSES: withSso(oidc('http://idp.msu.edu')),
      }),
    ).toEqual(['CAMPUSES msu.sso.issuer: must be an https: address when NODE_ENV=production']);
    const saml = {
      type: 'saml',
      entryPoint: 'http://idp.msu.edu/sso',
      idpCertificate: 'MIIC',
      entityId: 'urn:msu',
    };
    expect(
      problemsOf({ ...base, PUBLIC_URL: 'https://market.example.edu', CAMPUSES: withSso(saml) }),
    ).toEqual(['CAMPUSES msu.sso.entryPoint: must be an https: address when NODE_ENV=production']);
  });

  it('in production, refuses an http: PUBLIC_URL (the redirect URI) when a campus has university sign-in', () => {
    const problems = problemsOf({
      ...base,
      PUBLIC_URL: 'http://market.example.edu',
      CAMPUSES: withSso(oidc('https://idp.msu.edu')),
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^CAMPUSES msu\.sso: PUBLIC_URL must be an https: address/);
    expect(
      problemsOf({
        ...base,
        PUBLIC_URL: 'https://market.example.edu',
        CAMPUSES: withSso(oidc('https://idp.msu.edu')),
      }),
    ).toEqual([]);
  });

  it('outside production, plain http: is accepted (local trials and tests)', () => {
    expect(
      problemsOf({ ...base, NODE_ENV: 'development', CAMPUSES: withSso(oidc('http://127.0.0.1:4000')) }),
    ).toEqual([]);
  });

  it('ssoOnly needs sso', () => {
    const campuses = JSON.stringify([{ ...TEST_CAMPUSES[0], ssoOnly: true }]);
    expect(problemsOf({ ...base, NODE_ENV: 'development', CAMPUSES: campuses })).toEqual([
      'CAMPUSES msu.ssoOnly: needs "sso" (university sign-in) to be configured',
    ]);
  });
});

describe('what university sign-in writes to the log', () => {
  it('never the authorization code, the state, the exchange code or the token', async () => {
    const lines: string[] = [];
    const idp = await startTestIdp({ redirectUris: [msuCallback] });
    const t = await createTestApp({
      env: { ...campusesWithSso(idp), LOG_LEVEL: 'info' },
      logger: true,
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      idp.accounts.set('logged', {
        email: 'logged@msu.edu',
        eduperson_scoped_affiliation: ['student@msu.edu'],
      });
      const started = await startSignIn(t);
      const callback = await idp.signIn(started.location, 'logged');
      const secrets = [callback.searchParams.get('code'), callback.searchParams.get('state')];
      const code = exchangeCodeOf(await arriveAt(t, callback, started.cookie));
      const token = (await exchange(t, code)).body;
      secrets.push(code, token, started.cookie.split('=')[1] ?? null);
      const log = lines.join('\n');
      expect(log).toContain('/auth/sso/msu/callback');
      for (const secret of secrets) {
        expect(secret).toBeTruthy();
        expect(log).not.toContain(secret);
      }
    } finally {
      await t.close();
      await idp.close();
    }
  });
});

describe.each(dialects)('a campus with SAML sign-in (%s)', (dialect) => {
  it('is offered on GET /public/campus', async () => {
    const saml = {
      type: 'saml',
      entryPoint: 'http://127.0.0.1:9/sso',
      idpCertificate: 'MIIC',
      entityId: 'urn:msu',
    };
    const t = await createTestApp({
      dialect,
      env: { CAMPUSES: JSON.stringify([{ ...TEST_CAMPUSES[0], sso: saml }, TEST_CAMPUSES[1]]) },
    });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/public/campus' });
      expect(res.json()).toMatchObject({
        sso: { type: 'saml', label: 'Continue with MSU account' },
        ssoOnly: false,
      });
      const list = await t.app.inject({ method: 'GET', url: '/public/campuses' });
      expect(list.json()).toMatchObject([{ slug: 'msu', universitySignIn: 'offered' }, { slug: 'uw' }]);
      expect(list.json()[1]).not.toHaveProperty('universitySignIn');
    } finally {
      await t.close();
    }
  });
});

describe('a campus served on its own host', () => {
  it("signs in on the campus's site: start moves there, the redirect URI is there", async () => {
    const idp = await startTestIdp({ redirectUris: ['http://market.uw.edu/auth/sso/uw/callback'] });
    const [msu, uw] = TEST_CAMPUSES;
    const sso = { type: 'oidc', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret };
    const t = await createTestApp({
      env: { PUBLIC_URL: 'http://market.test', CAMPUSES: JSON.stringify([msu, { ...uw, sso }]) },
    });
    try {
      const elsewhere = await t.app.inject({ method: 'GET', url: '/auth/sso/uw/start' });
      expect(elsewhere.statusCode).toBe(302);
      expect(elsewhere.headers.location).toBe('http://market.uw.edu/auth/sso/uw/start');
      const there = await t.app.inject({
        method: 'GET',
        url: '/auth/sso/uw/start',
        headers: { host: 'market.uw.edu' },
      });
      expect(there.statusCode).toBe(302);
      const authorization = new URL(String(there.headers.location));
      expect(authorization.origin).toBe(idp.issuer);
      expect(authorization.searchParams.get('redirect_uri')).toBe(
        'http://market.uw.edu/auth/sso/uw/callback',
      );
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    } finally {
      await t.close();
      await idp.close();
    }
  });
});

describe('a closed campus', () => {
  it('offers no university sign-in any more (404 page), though its sso settings are stored', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-sso-closed-'));
    const idp = await startTestIdp({ redirectUris: [msuCallback] });
    try {
      const open = await createTestApp({ dataDir, env: campusesWithSso(idp) });
      expect((await open.app.inject({ method: 'GET', url: '/auth/sso/msu/start' })).statusCode).toBe(302);
      await open.close();
      // The operator removes MSU from CAMPUSES: it is closed, never deleted.
      const [, uw] = TEST_CAMPUSES;
      const closed = await createTestApp({
        dataDir,
        env: { PUBLIC_URL: 'http://market.test', CAMPUSES: JSON.stringify([{ ...uw, default: true }]) },
      });
      try {
        const res = await closed.app.inject({ method: 'GET', url: '/auth/sso/msu/start' });
        expect(res.statusCode).toBe(404);
        expect(res.body).toContain(SSO_MESSAGES.notOffered);
      } finally {
        await closed.close();
      }
    } finally {
      await idp.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
