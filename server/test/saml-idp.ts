/**
 * A real SAML identity provider for tests: samlify acting as the IdP, behind an HTTP server, as a
 * university's Shibboleth would be. Its single sign-on address takes our AuthnRequest over the
 * HTTP-Redirect binding, verifies the request's signature against the certificate in our SP
 * metadata (as an IdP that wants signed requests does), and answers with the auto-posting form a
 * browser would receive after the student logs in: a signed Response for our ACS with the
 * RelayState. What the next answer says (attributes, times, audience…) is set by the test, so each
 * refusal is produced by a genuinely signed response, never by a stub.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as samlify from 'samlify';
import { loadSamlSpCredentials, type SamlSpCredentials } from '../src/sso/saml-credentials.js';

// samlify refuses to parse anything until a schema validator is set. This test IdP accepts every
// document: what is under test is our service provider, and node-saml (not samlify) is what checks
// the responses on our side. Never use a permissive validator outside tests.
samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped: test IdP') });

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';

export const ATTR = {
  mail: 'urn:oid:0.9.2342.19200300.100.1.3',
  givenName: 'urn:oid:2.5.4.42',
  sn: 'urn:oid:2.5.4.4',
  eduPersonScopedAffiliation: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.9',
} as const;

export interface IdpAttribute {
  name: string;
  friendlyName?: string;
  values: string[];
}

/** What the next answer says; every field defaults to what a correct IdP sends. */
export interface IdpAnswer {
  attributes?: IdpAttribute[];
  issuer?: string;
  audience?: string;
  /** The Response's Destination and the bearer confirmation's Recipient (our ACS by default). */
  destination?: string;
  /** The request answered; `null` leaves InResponseTo out (an IdP-initiated, unsolicited response). */
  inResponseTo?: string | null;
  issuedAt?: Date;
  notOnOrAfter?: Date;
  /** What is signed: the Assertion (as our metadata asks), the Response, both, or nothing. */
  sign?: 'assertion' | 'response' | 'both' | 'none';
  /** Sign with another key pair than the one the campus trusts. */
  signWith?: SamlSpCredentials;
}

/** A student as a university releases them: OID names with friendly names, two affiliations. */
export function studentAttributes(
  email: string,
  affiliations = ['student@msu.edu', 'member@msu.edu'],
): IdpAttribute[] {
  return [
    { name: ATTR.mail, friendlyName: 'mail', values: [email] },
    { name: ATTR.givenName, friendlyName: 'givenName', values: ['Ada'] },
    { name: ATTR.sn, friendlyName: 'sn', values: ['Lovelace'] },
    {
      name: ATTR.eduPersonScopedAffiliation,
      friendlyName: 'eduPersonScopedAffiliation',
      values: affiliations,
    },
  ];
}

/** A key and self-signed certificate made the way the server makes its own (openssl), in a temp dir. */
export async function makeKeyPair(): Promise<SamlSpCredentials> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'saml-key-'));
  try {
    return await loadSamlSpCredentials(dir, {});
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ReceivedRequest {
  id: string;
  relayState: string;
  /** The signature algorithm of the Redirect-binding signature samlify verified. */
  sigAlg: string;
  issuer: string;
}

export class TestSamlIdp {
  /** Every AuthnRequest received, in order (only those whose signature verified). */
  readonly requests: ReceivedRequest[] = [];
  /** Set by the test before the browser comes: what the next answer says. */
  next: IdpAnswer = {};
  private spMetadata: string | undefined;

  private constructor(
    private readonly server: Server,
    readonly entityId: string,
    readonly credentials: SamlSpCredentials,
  ) {}

  static async start(entityId = 'https://idp.msu.test/idp/shibboleth'): Promise<TestSamlIdp> {
    const credentials = await makeKeyPair();
    const server = createServer();
    const idp = new TestSamlIdp(server, entityId, credentials);
    server.on('request', (req, res) => {
      idp
        .handle(req.url ?? '/')
        .then((html) => res.writeHead(200, { 'content-type': 'text/html' }).end(html))
        .catch((err: unknown) => res.writeHead(400).end(String(err)));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return idp;
  }

  get entryPoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/idp/sso`;
  }

  /** The campus's `idpCertificate`, as a university publishes it. */
  get certificatePem(): string {
    return this.credentials.certificatePem;
  }

  /** Registers our SP metadata, as a university's IdP admin does once. */
  trust(spMetadataXml: string): void {
    this.spMetadata = spMetadataXml;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The browser following our redirect: the IdP checks the request and answers with its form. */
  async handle(rawUrl: string): Promise<string> {
    const { SAMLResponse, RelayState, action } = await this.answer(rawUrl);
    return (
      `<form method="post" action="${escapeXml(action)}">` +
      `<input type="hidden" name="SAMLResponse" value="${escapeXml(SAMLResponse)}">` +
      `<input type="hidden" name="RelayState" value="${escapeXml(RelayState)}">` +
      `</form><script>document.forms[0].submit()</script>`
    );
  }

  /** The same, without HTTP: the fields the IdP would post to our ACS, and where. */
  async answer(rawUrl: string): Promise<{ SAMLResponse: string; RelayState: string; action: string }> {
    if (!this.spMetadata) throw new Error('test IdP: no SP metadata registered');
    const url = new URL(rawUrl, 'http://idp.invalid');
    // The Redirect binding signs the query exactly as sent, in this order (saml-bindings §3.4.4.1).
    const octetString = url.search
      .slice(1)
      .split('&')
      .filter((part) => /^(SAMLRequest|RelayState|SigAlg)=/.test(part))
      .join('&');
    const query = Object.fromEntries(url.searchParams);
    const sp = samlify.ServiceProvider({ metadata: this.spMetadata });
    const parsed = await this.entity().parseLoginRequest(sp, 'redirect', { query, octetString });
    const extract = parsed.extract as { request: { id: string }; issuer: string };
    const request: ReceivedRequest = {
      id: extract.request.id,
      relayState: query.RelayState ?? '',
      sigAlg: parsed.sigAlg ?? '',
      issuer: extract.issuer,
    };
    this.requests.push(request);
    const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
    return {
      SAMLResponse: await this.respond(request.id, this.next),
      RelayState: request.relayState,
      action: acs,
    };
  }

  /** A response signed by samlify as `answer` says, for the request `requestId`. */
  async respond(requestId: string, answer: IdpAnswer = {}): Promise<string> {
    if (!this.spMetadata) throw new Error('test IdP: no SP metadata registered');
    const sign = answer.sign ?? 'assertion';
    const metadata =
      sign === 'response' ? this.spMetadata.replace(/\sWantAssertionsSigned="true"/, '') : this.spMetadata;
    const sp = samlify.ServiceProvider({ metadata, wantMessageSigned: sign === 'both' });
    const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
    const xml = this.responseXml(requestId, answer, acs, sp.entityMeta.getEntityID() as string);
    if (sign === 'none') return Buffer.from(xml).toString('base64');
    const result = await this.entity(answer.signWith).createLoginResponse(
      sp,
      { extract: { request: { id: requestId } } },
      'post',
      {},
      { customTagReplacement: () => ({ id: '', context: xml }) },
    );
    return result.context;
  }

  private entity(signWith?: SamlSpCredentials) {
    const keys = signWith ?? this.credentials;
    return samlify.IdentityProvider({
      entityID: this.entityId,
      privateKey: keys.privateKeyPem,
      signingCert: keys.certificatePem,
      wantAuthnRequestsSigned: true,
      nameIDFormat: [TRANSIENT],
      singleSignOnService: [
        { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: this.entryPoint },
      ],
      // Unused (no single logout), but samlify warns on every construction without one.
      singleLogoutService: [
        { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: this.entryPoint },
      ],
    });
  }

  private responseXml(requestId: string, answer: IdpAnswer, acs: string, spEntityId: string): string {
    const issuedAt = answer.issuedAt ?? new Date();
    const notOnOrAfter = answer.notOnOrAfter ?? new Date(issuedAt.getTime() + 5 * 60_000);
    const issuer = escapeXml(answer.issuer ?? this.entityId);
    const destination = escapeXml(answer.destination ?? acs);
    const inResponseTo = answer.inResponseTo === undefined ? requestId : answer.inResponseTo;
    const irt = inResponseTo === null ? '' : ` InResponseTo="${escapeXml(inResponseTo)}"`;
    const times = { issued: issuedAt.toISOString(), end: notOnOrAfter.toISOString() };
    const attributes = (answer.attributes ?? [])
      .map(
        (a) =>
          `<saml:Attribute Name="${escapeXml(a.name)}"` +
          (a.friendlyName ? ` FriendlyName="${escapeXml(a.friendlyName)}"` : '') +
          ` NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">` +
          a.values
            .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`)
            .join('') +
          `</saml:Attribute>`,
      )
      .join('');
    return (
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
      ` ID="${newId()}" Version="2.0" IssueInstant="${times.issued}" Destination="${destination}"${irt}>` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"` +
      ` ID="${newId()}" Version="2.0" IssueInstant="${times.issued}">` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${TRANSIENT}">${newId()}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="${BEARER}"><saml:SubjectConfirmationData NotOnOrAfter="${times.end}" Recipient="${destination}"${irt}/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${times.issued}" NotOnOrAfter="${times.end}"><saml:AudienceRestriction><saml:Audience>${escapeXml(answer.audience ?? spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${times.issued}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      `</saml:Assertion></samlp:Response>`
    );
  }
}

function newId(): string {
  return `_${randomBytes(16).toString('hex')}`;
}

function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** The fields of the IdP's auto-posting form, as a browser would submit them. */
export function formFields(html: string): { action: string; fields: Record<string, string> } {
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const action = unescape(/<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? '');
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1] as string] = unescape(m[2] as string);
  }
  return { action, fields };
}
