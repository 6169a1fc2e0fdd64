/**
 * The SAML service provider against a real IdP (samlify, server/test/saml-idp.ts): the signed
 * AuthnRequest it receives, the identity read from a signed response, and every relying-party
 * refusal, each produced by a response the IdP really signed.
 */
import { inflateRawSync } from 'node:zlib';
import type { CampusSso } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../test/helper.js';
import {
  ATTR,
  TestSamlIdp,
  formFields,
  makeKeyPair,
  studentAttributes,
  type IdpAnswer,
} from '../../test/saml-idp.js';
import { SsoRefusal, type SsoProtocol } from './protocol.js';
import { createSamlProtocol, type SamlProtocolOptions } from './saml.js';
import type { SamlSpCredentials } from './saml-credentials.js';

const PUBLIC_URL = 'https://market.example.edu';
const callbackUrl = `${PUBLIC_URL}/auth/sso/msu/callback`;
const spEntityId = `${PUBLIC_URL}/auth/sso/msu/metadata`;

let idp: TestSamlIdp;
let spKeys: SamlSpCredentials;
let otherKeys: SamlSpCredentials;

/** One replay cache, as the database table is: shared by every protocol instance made here. */
const seen = new Map<string, number>();
function sharedCache(clock: TestClock): SamlProtocolOptions['rememberAssertion'] {
  return (id, expiresAtMs) => {
    const until = seen.get(id);
    if (until !== undefined && until > clock.now()) return Promise.resolve(false);
    seen.set(id, expiresAtMs);
    return Promise.resolve(true);
  };
}

function protocol(
  overrides: Partial<Extract<CampusSso, { type: 'saml' }>> = {},
  clock = new TestClock(),
): SsoProtocol {
  return createSamlProtocol({
    slug: 'msu',
    settings: {
      type: 'saml',
      entryPoint: idp.entryPoint,
      idpCertificate: idp.certificatePem,
      entityId: idp.entityId,
      ...overrides,
    },
    callbackUrl,
    spEntityId,
    credentials: spKeys,
    rememberAssertion: sharedCache(clock),
    now: clock.now,
  });
}

beforeAll(async () => {
  [idp, spKeys, otherKeys] = await Promise.all([TestSamlIdp.start(), makeKeyPair(), makeKeyPair()]);
  idp.trust(protocol().metadata!());
});

afterAll(async () => {
  await idp?.close();
});

/** Starts a sign-in and has the IdP answer it as `answer` says; returns what our ACS receives. */
async function signIn(sp: SsoProtocol, answer: IdpAnswer = {}) {
  const started = await sp.start();
  idp.next = { attributes: studentAttributes('ada@msu.edu'), ...answer };
  const page = await fetch(started.redirectUrl);
  expect(page.status).toBe(200);
  const { action, fields } = formFields(await page.text());
  return { started, action, form: fields };
}

function finish(sp: SsoProtocol, form: Record<string, string>, pending: Record<string, string>) {
  return sp.finish({ form, query: {}, url: new URL(callbackUrl) }, pending);
}

async function refusal(promise: Promise<unknown>): Promise<SsoRefusal> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SsoRefusal);
  const refused = err as SsoRefusal;
  // What a student reads never carries the assertion or the address.
  expect(refused.message).not.toMatch(/ada@msu\.edu|<|saml/i);
  return refused;
}

describe('SAML start: the signed AuthnRequest', () => {
  it('redirects to the entry point with a request the IdP verifies against our certificate', async () => {
    const sp = protocol();
    const started = await sp.start();
    const url = new URL(started.redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(idp.entryPoint);
    expect(url.searchParams.get('RelayState')).toBe(started.key);
    expect(url.searchParams.get('Signature')).toBeTruthy();
    expect(started.key).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    expect(started.pending.requestId).toMatch(/^_[0-9a-f]{40}$/);

    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString();
    expect(request).toContain(`ID="${started.pending.requestId}"`);
    expect(request).toContain(`AssertionConsumerServiceURL="${callbackUrl}"`);
    expect(request).toContain('ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"');
    expect(request).toContain(`Destination="${idp.entryPoint}"`);
    expect(request).toMatch(
      /<samlp:NameIDPolicy[^>]*Format="urn:oasis:names:tc:SAML:2.0:nameid-format:transient"/,
    );
    expect(request).not.toContain('RequestedAuthnContext');

    const before = idp.requests.length;
    idp.next = { attributes: studentAttributes('ada@msu.edu') };
    expect((await fetch(started.redirectUrl)).status).toBe(200);
    const received = idp.requests[before];
    expect(received).toEqual({
      id: started.pending.requestId,
      relayState: started.key,
      sigAlg: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      issuer: spEntityId,
    });
  });

  it('a fresh RelayState and request ID every time', async () => {
    const sp = protocol();
    const [a, b] = await Promise.all([sp.start(), sp.start()]);
    expect(a.key).not.toBe(b.key);
    expect(a.pending.requestId).not.toBe(b.pending.requestId);
  });

  it('the IdP rejects a request signed by another key than the metadata names', async () => {
    const impostor = createSamlProtocol({
      slug: 'msu',
      settings: {
        type: 'saml',
        entryPoint: idp.entryPoint,
        idpCertificate: idp.certificatePem,
        entityId: idp.entityId,
      },
      callbackUrl,
      spEntityId,
      credentials: otherKeys,
      rememberAssertion: () => Promise.resolve(true),
      now: Date.now,
    });
    const started = await impostor.start();
    const page = await fetch(started.redirectUrl);
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/SIGNATURE/);
  });
});

describe('SAML finish: the identity', () => {
  it('a signed response for our request gives the e-mail, names and every affiliation', async () => {
    const sp = protocol();
    const { started, action, form } = await signIn(sp, {
      attributes: studentAttributes('Ada@MSU.edu', ['student@msu.edu', 'member@msu.edu', 'alum@msu.edu']),
    });
    expect(action).toBe(callbackUrl);
    expect(form.RelayState).toBe(started.key);
    await expect(finish(sp, form, started.pending)).resolves.toEqual({
      email: 'ada@msu.edu',
      givenName: 'Ada',
      familyName: 'Lovelace',
      affiliations: ['student@msu.edu', 'member@msu.edu', 'alum@msu.edu'],
    });
  });

  it('accepts a response whose Response (not Assertion) is signed, as Shibboleth sends by default', async () => {
    const sp = protocol();
    const { started, form } = await signIn(sp, { sign: 'response' });
    expect(Buffer.from(form.SAMLResponse!, 'base64').toString()).toMatch(/<\/saml:Issuer><ds:Signature/);
    await expect(finish(sp, form, started.pending)).resolves.toMatchObject({ email: 'ada@msu.edu' });
  });

  it('reads attributes sent under friendly names, and a configured affiliation attribute', async () => {
    const sp = protocol({ affiliationAttribute: 'eduPersonAffiliation' });
    const { started, form } = await signIn(sp, {
      attributes: [
        { name: 'email', values: ['grace@msu.edu'] },
        { name: 'givenName', values: ['Grace'] },
        { name: 'eduPersonScopedAffiliation', values: ['staff@msu.edu'] },
        {
          name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1',
          friendlyName: 'eduPersonAffiliation',
          values: ['student', 'member'],
        },
      ],
    });
    await expect(finish(sp, form, started.pending)).resolves.toEqual({
      email: 'grace@msu.edu',
      givenName: 'Grace',
      familyName: null,
      affiliations: ['student', 'member'],
    });
  });

  it('takes the IdP certificate as the bare base64 of its metadata, and refuses one it cannot read', async () => {
    const body = idp.certificatePem.replace(/-----[A-Z ]+-----/g, '').trim();
    const indented = body.replace(/\n/g, '\n        ');
    const sp = protocol({ idpCertificate: `\n        ${indented}\n      ` });
    const { started, form } = await signIn(sp);
    await expect(finish(sp, form, started.pending)).resolves.toMatchObject({ email: 'ada@msu.edu' });
    expect(() => protocol({ idpCertificate: 'MIIBogus' })).toThrow(/Campus msu: sso.idpCertificate/);
  });

  it('no e-mail attribute: missing-email', async () => {
    const sp = protocol();
    const { started, form } = await signIn(sp, {
      attributes: studentAttributes('x').filter((a) => a.name !== ATTR.mail),
    });
    expect((await refusal(finish(sp, form, started.pending))).reason).toBe('missing-email');
  });
});

describe('SAML finish: refusals', () => {
  it('an attribute edited after signing: signature', async () => {
    for (const sign of ['assertion', 'response'] as const) {
      const sp = protocol();
      const { started, form } = await signIn(sp, { sign });
      const xml = Buffer.from(form.SAMLResponse!, 'base64').toString();
      const tampered = xml.replace('ada@msu.edu', 'eve@msu.edu');
      expect(tampered).not.toBe(xml);
      const edited = { ...form, SAMLResponse: Buffer.from(tampered).toString('base64') };
      expect((await refusal(finish(sp, edited, started.pending))).reason).toBe('signature');
      // The untouched response still works: the edit alone made the difference.
      await expect(finish(sp, form, started.pending)).resolves.toMatchObject({ email: 'ada@msu.edu' });
    }
  });

  it('signed by another key, or not signed at all: signature', async () => {
    for (const answer of [{ signWith: otherKeys }, { sign: 'none' }] satisfies IdpAnswer[]) {
      const sp = protocol();
      const { started, form } = await signIn(sp, answer);
      expect((await refusal(finish(sp, form, started.pending))).reason).toBe('signature');
    }
  });

  // Really in the past (or future): node-saml reads the machine clock itself.
  it.each([
    ['whose NotOnOrAfter has passed', -20, 5],
    ['issued longer ago than we accept, however long it says it lasts', -15, 60],
    ['not valid yet', 10, 5],
  ])('an assertion %s: expired', async (_what, issuedInMinutes, lastsMinutes) => {
    const sp = protocol();
    const issuedAt = new Date(Date.now() + issuedInMinutes * 60_000);
    const { started, form } = await signIn(sp, {
      issuedAt,
      notOnOrAfter: new Date(issuedAt.getTime() + lastsMinutes * 60_000),
    });
    expect((await refusal(finish(sp, form, started.pending))).reason).toBe('expired');
  });

  it('a valid assertion once our injected clock is past its NotOnOrAfter: expired', async () => {
    const clock = new TestClock();
    const sp = protocol({}, clock);
    const { started, form } = await signIn(sp);
    clock.advance(10 * 60_000);
    expect((await refusal(finish(sp, form, started.pending))).reason).toBe('expired');
  });

  it('the same response twice, on one instance or on another sharing the cache: replay', async () => {
    const first = protocol();
    const { started, form } = await signIn(first);
    await expect(finish(first, form, started.pending)).resolves.toMatchObject({ email: 'ada@msu.edu' });
    expect((await refusal(finish(first, form, started.pending))).reason).toBe('replay');
    const second = protocol();
    expect((await refusal(finish(second, form, started.pending))).reason).toBe('replay');
  });

  it('no InResponseTo, or one we never issued: unsolicited', async () => {
    const sp = protocol();
    const started = await sp.start();
    const never = await idp.respond('_never-issued', { attributes: studentAttributes('ada@msu.edu') });
    const idpInitiated = await idp.respond(started.pending.requestId!, {
      attributes: studentAttributes('ada@msu.edu'),
      inResponseTo: null,
    });
    for (const SAMLResponse of [never, idpInitiated]) {
      const form = { SAMLResponse, RelayState: started.key };
      expect((await refusal(finish(sp, form, started.pending))).reason).toBe('unsolicited');
    }
  });

  it("a response to another of our requests than this RelayState's: unsolicited", async () => {
    const sp = protocol();
    const mine = await sp.start();
    const { form } = await signIn(sp); // answers another start()
    expect((await refusal(finish(sp, { ...form, RelayState: mine.key }, mine.pending))).reason).toBe(
      'unsolicited',
    );
  });

  it.each([
    ['audience', { audience: 'https://other.example.org/shibboleth' }],
    ['destination', { destination: 'https://other.example.org/Shibboleth.sso/SAML2/POST' }],
    ['issuer', { issuer: 'https://idp.other.test/idp/shibboleth' }],
  ] satisfies Array<[SsoRefusal['reason'], IdpAnswer]>)('wrong %s', async (reason, answer) => {
    const sp = protocol();
    const { started, form } = await signIn(sp, answer);
    expect((await refusal(finish(sp, form, started.pending))).reason).toBe(reason);
  });

  it('a signed assertion moved aside for a forged one (signature wrapping): signature', async () => {
    const sp = protocol();
    const { started, form } = await signIn(sp);
    const xml = Buffer.from(form.SAMLResponse!, 'base64').toString();
    const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
    const forged = signed
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
      .replace(/ID="[^"]+"/, 'ID="_forged"')
      .replace('ada@msu.edu', 'eve@msu.edu');
    const wrapped = xml.replace(signed, `<samlp:Extensions>${signed}</samlp:Extensions>${forged}`);
    const attack = { ...form, SAMLResponse: Buffer.from(wrapped).toString('base64') };
    expect((await refusal(finish(sp, attack, started.pending))).reason).toBe('signature');
  });

  it('a SAMLResponse that is not a SAML document: refused, not an error', async () => {
    const sp = protocol();
    const started = await sp.start();
    for (const SAMLResponse of ['not base64 at all!', Buffer.from('<html>hi</html>').toString('base64')]) {
      // Whichever check trips first (here: no InResponseTo), it is a refusal the page can show.
      await refusal(finish(sp, { SAMLResponse, RelayState: started.key }, started.pending));
    }
  });

  it('the university refused or the callback is incomplete', async () => {
    const sp = protocol();
    const { started, form } = await signIn(sp);
    expect((await refusal(finish(sp, { RelayState: started.key }, started.pending))).reason).toBe(
      'idp-error',
    );
    expect((await refusal(finish(sp, { SAMLResponse: form.SAMLResponse! }, started.pending))).reason).toBe(
      'state',
    );
    const status = Buffer.from(
      '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x" Version="2.0"' +
        ` IssueInstant="${new Date().toISOString()}" InResponseTo="${started.pending.requestId}">` +
        '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">' +
        '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode></samlp:Status>' +
        '</samlp:Response>',
    ).toString('base64');
    const refused = await refusal(
      finish(sp, { SAMLResponse: status, RelayState: started.key }, started.pending),
    );
    expect(refused.reason).toBe('idp-error');
  });
});

describe('SAML metadata', () => {
  it('names our entity ID, the POST ACS, the signing certificate and what we require', () => {
    const xml = protocol().metadata!();
    expect(xml).toMatch(new RegExp(`<EntityDescriptor[^>]*entityID="${spEntityId}"`));
    expect(xml).toMatch(/<SPSSODescriptor[^>]*AuthnRequestsSigned="true"/);
    expect(xml).toMatch(/<SPSSODescriptor[^>]*WantAssertionsSigned="true"/);
    expect(xml).toContain(
      `<AssertionConsumerService index="1" isDefault="true" Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${callbackUrl}"/>`,
    );
    const certBody = spKeys.certificatePem.replace(/-----[A-Z ]+-----|\s/g, '');
    const published =
      /<KeyDescriptor use="signing">[\s\S]*?<ds:X509Certificate>([\s\S]*?)<\/ds:X509Certificate>/.exec(xml);
    expect(published?.[1]?.replace(/\s/g, '')).toBe(certBody);
    expect(xml).not.toContain('PRIVATE KEY');
  });

  it('parses as SP metadata for a real IdP (samlify reads the ACS and certificate from it)', async () => {
    const { ServiceProvider } = await import('samlify');
    const sp = ServiceProvider({ metadata: protocol().metadata!() });
    expect(sp.entityMeta.getEntityID()).toBe(spEntityId);
    expect(sp.entityMeta.getAssertionConsumerService('post')).toBe(callbackUrl);
    expect(String(sp.entityMeta.getX509Certificate('signing')).replace(/\s/g, '')).toBe(
      spKeys.certificatePem.replace(/-----[A-Z ]+-----|\s/g, ''),
    );
  });
});
