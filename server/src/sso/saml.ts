/**
 * University sign-in over SAML 2.0 (Web Browser SSO profile): Campus Market is the service
 * provider, the campus's IdP (Shibboleth, ADFS, Entra ID…) answers. node-saml builds and signs the
 * AuthnRequest (HTTP-Redirect binding) and verifies the response's XML signature; saml-checks.ts
 * adds the checks it leaves to us and saml-identity.ts reads the attributes.
 *
 * Signatures: a response is accepted when the Response or the Assertion in it carries a valid
 * signature by `idpCertificate` (node-saml then reads only the signed part). Either covers the
 * assertion; Shibboleth signs the Response by default, ADFS and Entra ID sign the Assertion, so
 * requiring one particular element would turn universities away for no gain. The metadata still
 * asks for signed assertions (WantAssertionsSigned), which IdPs that honour it follow.
 */
import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import {
  SAML,
  ValidateInResponseTo,
  generateServiceProviderMetadata,
  type CacheProvider,
  type Profile,
  type SamlConfig,
} from '@node-saml/node-saml';
import type { CampusSso } from '@campus/contract';
import type { AssertedIdentity, SsoCallbackInput, SsoProtocol, SsoStart } from './protocol.js';
import {
  SAML_CLOCK_SKEW_MS,
  SAML_MAX_ASSERTION_AGE_MS,
  checkAssertion,
  refusalFromLibrary,
  refuse,
} from './saml-checks.js';
import { identityFromAssertion } from './saml-identity.js';
import { parseXml, root } from './saml-xml.js';

export interface SamlProtocolOptions {
  slug: string;
  settings: Extract<CampusSso, { type: 'saml' }>;
  /** The ACS (HTTP-POST binding): `${PUBLIC_URL}/auth/sso/${slug}/callback`. */
  callbackUrl: string;
  /** Our entity ID, also the metadata's address: `${PUBLIC_URL}/auth/sso/${slug}/metadata`. */
  spEntityId: string;
  credentials: { privateKeyPem: string; certificatePem: string };
  /** Records an assertion ID until it expires; false when it was already recorded (a replay). */
  rememberAssertion(id: string, expiresAtMs: number): Promise<boolean>;
  now(): number;
}

/**
 * The NameID is not how we know the student (the e-mail attribute is), so ask for the format every
 * IdP supports and that reveals nothing: transient.
 */
const NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';

export function createSamlProtocol(options: SamlProtocolOptions): SsoProtocol {
  const { settings, callbackUrl, spEntityId, credentials } = options;
  const base: SamlConfig = {
    entryPoint: settings.entryPoint,
    idpCert: idpCertificates(settings.idpCertificate, options.slug),
    issuer: spEntityId,
    audience: spEntityId,
    callbackUrl,
    privateKey: credentials.privateKeyPem,
    publicCert: credentials.certificatePem,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    identifierFormat: NAME_ID_FORMAT,
    // The university decides how its students authenticate (password, MFA); asking for an exact
    // context class makes some IdPs refuse.
    disableRequestedAuthnContext: true,
    // Response or Assertion signed (see the file comment); node-saml requires at least one.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    maxAssertionAgeMs: SAML_MAX_ASSERTION_AGE_MS,
    validateInResponseTo: ValidateInResponseTo.always,
  };

  return {
    async start(): Promise<SsoStart> {
      const requestId = `_${randomBytes(20).toString('hex')}`;
      const key = randomBytes(32).toString('base64url');
      // A SAML object per request: its ID generator and request cache are per-instance state, and
      // the sso module (not node-saml's in-memory cache) keeps what must survive until the callback.
      const saml = new SAML({
        ...base,
        generateUniqueId: () => requestId,
        cacheProvider: requestCache(null),
      });
      const redirectUrl = await saml.getAuthorizeUrlAsync(key, undefined, {});
      return { redirectUrl, key, pending: { requestId } };
    },

    async finish(input: SsoCallbackInput, pending: Record<string, string>): Promise<AssertedIdentity> {
      const samlResponse = input.form.SAMLResponse;
      if (!samlResponse) throw refuse('idp-error');
      if (!input.form.RelayState) throw refuse('state');
      const requestId = pending.requestId;
      if (!requestId) throw refuse('unsolicited');

      const saml = new SAML({ ...base, cacheProvider: requestCache(requestId) });
      let profile: Profile | null;
      try {
        ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
      } catch (err) {
        throw refusalFromLibrary(err);
      }
      const assertion = root(profile?.getAssertion?.(), 'Assertion');
      const responseXml = profile?.getSamlResponseXml?.();
      if (!assertion || !responseXml) throw refuse('idp-error');

      const checked = checkAssertion({
        response: root(await parseXml(responseXml), 'Response'),
        assertion,
        idpEntityId: settings.entityId,
        callbackUrl,
        requestId,
        nowMs: options.now(),
      });
      const identity = identityFromAssertion(assertion, settings.affiliationAttribute);
      // Last: the replay table only ever holds assertions that passed every other check, i.e. that
      // the university really signed for this request.
      if (!(await options.rememberAssertion(checked.id, checked.acceptableUntilMs))) throw refuse('replay');
      return identity;
    },

    metadata(): string {
      return generateServiceProviderMetadata({
        issuer: spEntityId,
        callbackUrl,
        identifierFormat: NAME_ID_FORMAT,
        wantAssertionsSigned: true,
        privateKey: credentials.privateKeyPem,
        publicCerts: credentials.certificatePem,
        signatureAlgorithm: 'sha256',
        // The same document from every process and every restart (node-saml would draw a random ID).
        generateUniqueId: () =>
          `_${createHash('sha256').update(`${spEntityId}\n${credentials.certificatePem}`).digest('hex').slice(0, 40)}`,
      });
    },
  };
}

/**
 * node-saml checks InResponseTo through a cache of the requests it sent. The sso module already
 * keeps the pending request under the RelayState, single use, so the cache here knows exactly one
 * ID: the one this callback's RelayState was issued with.
 */
function requestCache(requestId: string | null): CacheProvider {
  return {
    saveAsync: () => Promise.resolve(null),
    // node-saml compares this value, a creation time, with its requestIdExpirationPeriodMs; the
    // pending request's own lifetime is enforced by the sso module.
    getAsync: (key) =>
      Promise.resolve(requestId !== null && key === requestId ? new Date().toISOString() : null),
    removeAsync: () => Promise.resolve(null),
  };
}

/**
 * The IdP's signing certificates: PEM (several blocks during a key rollover) or the bare base64
 * found in IdP metadata. Checked here so a mistyped certificate fails at start-up, not at sign-in.
 */
function idpCertificates(value: string, slug: string): string[] {
  const blocks = value.includes('-----BEGIN')
    ? (value.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [])
    : [`-----BEGIN CERTIFICATE-----\n${value.replace(/\s+/g, '')}\n-----END CERTIFICATE-----`];
  if (blocks.length === 0) throw new Error(`Campus ${slug}: sso.idpCertificate holds no certificate`);
  return blocks.map((pem) => {
    try {
      return new X509Certificate(pem).toString();
    } catch {
      throw new Error(`Campus ${slug}: sso.idpCertificate is not a readable X.509 certificate`);
    }
  });
}
