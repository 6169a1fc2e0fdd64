/**
 * University sign-in over SAML through the HTTP routes, against a real IdP (samlify behind an HTTP
 * server, server/test/saml-idp.ts): start → the IdP → the ACS POST → /sso/done#code=… → token; and a
 * response replayed to a second app process sharing the database, on SQLite and PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SSO_MESSAGES, type CampusSso } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CAMPUSES, createPgDatabase, createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { TestSamlIdp, formFields, studentAttributes } from '../../test/saml-idp.js';
import { SSO_PUBLIC_URL, exchange, exchangeCodeOf, startSignIn } from '../../test/sso.js';
import { escapeHtml } from '../http/html.js';
import type { SsoRefusal } from './protocol.js';
import { SsoProtocols } from './protocols.js';

const callbackPath = '/auth/sso/msu/callback';

function samlCampuses(idp: TestSamlIdp) {
  const [msu, ...rest] = TEST_CAMPUSES;
  const sso: CampusSso = {
    type: 'saml',
    entryPoint: idp.entryPoint,
    idpCertificate: idp.certificatePem,
    entityId: idp.entityId,
  };
  return { PUBLIC_URL: SSO_PUBLIC_URL, CAMPUSES: JSON.stringify([{ ...msu, sso }, ...rest]) };
}

/** The browser at the IdP after /start: the form it auto-posts back, as urlencoded fields. */
async function throughIdp(location: string): Promise<{ action: string; fields: Record<string, string> }> {
  const page = await fetch(location);
  expect(page.status).toBe(200);
  return formFields(await page.text());
}

function post(t: TestApp, fields: Record<string, string>, cookie = '') {
  return t.app.inject({
    method: 'POST',
    url: callbackPath,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe.each(dialects)('university sign-in over SAML (%s)', (dialect) => {
  let idp: TestSamlIdp;
  let a: TestApp;
  let b: TestApp;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    idp = await TestSamlIdp.start();
    cleanups.push(() => idp.close());
    // Two processes on one database and one DATA_DIR (so one generated SP key, as in production).
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-saml-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const created = await createPgDatabase();
      databaseUrl = created.url;
      cleanups.push(() => created.drop());
    }
    a = await createTestApp({ dialect, dataDir, databaseUrl, env: samlCampuses(idp) });
    cleanups.push(() => a.close());
    b = await createTestApp({ dialect, dataDir, databaseUrl, env: samlCampuses(idp) });
    cleanups.push(() => b.close());
    // The university's IdP admin registers our metadata, fetched from its published address.
    const metadata = await a.app.inject({ method: 'GET', url: '/auth/sso/msu/metadata' });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect((await b.app.inject({ method: 'GET', url: '/auth/sso/msu/metadata' })).body).toBe(metadata.body);
    idp.trust(metadata.body);
  });

  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('start → the IdP → the ACS → /sso/done#code=… → the token login gives', async () => {
    const started = await startSignIn(a);
    expect(started.location.startsWith(`${idp.entryPoint}?SAMLRequest=`)).toBe(true);
    const before = idp.requests.length;
    idp.next = { attributes: studentAttributes('saml.student@msu.edu') };
    const { action, fields } = await throughIdp(started.location);
    // The IdP verified our signature on the request and got the RelayState.
    expect(idp.requests[before]?.relayState).toBe(new URL(started.location).searchParams.get('RelayState'));
    expect(action).toBe(`${SSO_PUBLIC_URL}${callbackPath}`);

    const code = exchangeCodeOf(await post(a, fields, started.cookie));
    const res = await exchange(a, code);
    expect(res.statusCode, res.body).toBe(200);
    const me = await a.app.inject({
      method: 'GET',
      url: '/users/info',
      headers: { authorization: `Bearer ${res.body}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'saml.student@msu.edu',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
  });

  it('the same response posted again, to the other process: refused with a page', async () => {
    const started = await startSignIn(a);
    idp.next = { attributes: studentAttributes('replayed@msu.edu') };
    const { fields } = await throughIdp(started.location);
    exchangeCodeOf(await post(a, fields, started.cookie));
    for (const app of [b, a]) {
      const again = await post(app, fields, started.cookie);
      expect(again.statusCode).toBe(400);
      expect(again.headers['content-type']).toMatch(/^text\/html/);
      expect(again.headers.location).toBeUndefined();
      expect(again.body).not.toContain('replayed@msu.edu');
    }
  });

  it("the replay cache is one table: an assertion one process accepted, the other's protocol refuses", async () => {
    // Through the routes a replay already fails on its used RelayState; this is the layer behind
    // it, which holds even if a pending request were answered twice: each process's own protocol.
    const campus = a.app.ctx.campuses.bySlug('msu') as Parameters<SsoProtocols['for']>[0];
    const [onA, onB] = await Promise.all([
      new SsoProtocols(a.app.ctx).for(campus),
      new SsoProtocols(b.app.ctx).for(campus),
    ]);
    const started = await onA.start();
    const response = await idp.respond(started.pending.requestId!, {
      attributes: studentAttributes('cache@msu.edu'),
    });
    const input = {
      form: { SAMLResponse: response, RelayState: started.key },
      query: {},
      url: new URL(`${SSO_PUBLIC_URL}${callbackPath}`),
    };
    const [first, second] = await Promise.allSettled([
      onA.finish(input, started.pending),
      onB.finish(input, started.pending),
    ]);
    const outcomes = [first, second].map((r) =>
      r.status === 'fulfilled' ? 'accepted' : (r.reason as SsoRefusal).reason,
    );
    expect(outcomes.sort()).toEqual(['accepted', 'replay']);
    expect(await onA.finish(input, started.pending).catch((e: SsoRefusal) => e.reason)).toBe('replay');
  });

  it.each([
    [
      'an alumnus (no student affiliation)',
      studentAttributes('alum@msu.edu', ['alum@msu.edu', 'member@msu.edu']),
      SSO_MESSAGES.notAStudent('MSU'),
    ],
    [
      'a student of another institution',
      studentAttributes('visitor@msu.edu', ['student@other.edu']),
      SSO_MESSAGES.notAStudent('MSU'),
    ],
    [
      'an address outside the campus',
      studentAttributes('ada@gmail.com'),
      SSO_MESSAGES.emailOutsideCampus('MSU', ['msu.edu']),
    ],
  ])('the university asserts %s: a 403 page saying why, no session', async (_who, attributes, message) => {
    const started = await startSignIn(a);
    idp.next = { attributes };
    const { fields } = await throughIdp(started.location);
    const res = await post(a, fields, started.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain(escapeHtml(message));
  });

  it('a response to no request of ours, with a valid RelayState: refused with a page', async () => {
    const started = await startSignIn(a);
    const relayState = new URL(started.location).searchParams.get('RelayState')!;
    const unsolicited = await idp.respond('_not-ours', { attributes: studentAttributes('someone@msu.edu') });
    const res = await post(a, { SAMLResponse: unsolicited, RelayState: relayState }, started.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});
