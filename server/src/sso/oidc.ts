import { SSO_DEFAULT_AFFILIATION_CLAIM, SSO_MESSAGES, type CampusSso } from '@campus/contract';
import * as client from 'openid-client';
import { SsoRefusal, type AssertedIdentity, type SsoCallbackInput, type SsoProtocol } from './protocol.js';

export interface OidcOptions {
  slug: string;
  /** The campus's name, for the messages a student reads. */
  campusName: string;
  settings: Extract<CampusSso, { type: 'oidc' }>;
  /** `${PUBLIC_URL}/auth/sso/${slug}/callback`, registered with the university as the redirect URI. */
  callbackUrl: string;
  /** The app's clock (ms): ID token times are checked against it (TestClock in tests). */
  now(): number;
  /** Accept an http: issuer (outside production only: config refuses it in production). */
  allowHttp: boolean;
  /** Seconds before a request to the university is given up (discovery, token, userinfo). */
  timeoutSeconds?: number;
}

const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

/**
 * OpenID Connect relying party (features.md §G) on openid-client: discovery, authorization code
 * with PKCE (S256), state and nonce. openid-client checks the ID token's signature (against the
 * issuer's published keys: enableNonRepudiationChecks), issuer, audience, nonce, expiry and the state; this file only maps its
 * failures to refusals a student can read and reads e-mail, names and affiliation from the claims
 * (ID token, then userinfo when the provider has it: many put e-mail only there).
 */
export function createOidcProtocol(options: OidcOptions): SsoProtocol {
  const { settings } = options;
  const timeout = options.timeoutSeconds ?? 10;
  let discovered: Promise<client.ServerMetadata> | undefined;
  /** The issuer's keys, kept between sign-ins (openid-client refetches them on an unknown kid). */
  let jwksCache: client.ExportedJWKSCache | undefined;

  const serverMetadata = (): Promise<client.ServerMetadata> => {
    discovered ??= client
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        execute: options.allowHttp ? [client.allowInsecureRequests] : [],
        timeout,
      })
      .then((c) => c.serverMetadata())
      .catch((err: unknown) => {
        // Not cached: the next sign-in tries the university again.
        discovered = undefined;
        throw new SsoRefusal('unavailable', SSO_MESSAGES.unavailable(options.campusName), { cause: err });
      });
    return discovered;
  };

  /**
   * A configuration for one sign-in, so the app's clock of this moment is openid-client's (its
   * clock skew is fixed when a configuration is made).
   */
  const configuration = async (): Promise<client.Configuration> => {
    const server = await serverMetadata();
    const basic = server.token_endpoint_auth_methods_supported?.includes('client_secret_basic') ?? true;
    const config = new client.Configuration(
      server,
      settings.clientId,
      {
        client_secret: settings.clientSecret,
        [client.clockSkew]: Math.round((options.now() - Date.now()) / 1000),
      },
      basic
        ? client.ClientSecretBasic(settings.clientSecret)
        : client.ClientSecretPost(settings.clientSecret),
    );
    config.timeout = timeout;
    if (options.allowHttp) client.allowInsecureRequests(config);
    // The ID token's signature is checked against the issuer's published keys even though it came
    // straight from the token endpoint (openid-client would otherwise rely on TLS alone).
    client.enableNonRepudiationChecks(config);
    if (jwksCache) client.setJwksCache(config, jwksCache);
    return config;
  };

  return {
    async start() {
      const config = await configuration();
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const redirectUrl = client.buildAuthorizationUrl(config, {
        redirect_uri: options.callbackUrl,
        scope: (settings.scopes ?? DEFAULT_SCOPES).join(' '),
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { redirectUrl: redirectUrl.href, key: state, pending: { verifier, nonce, state } };
    },

    async finish(input: SsoCallbackInput, pending: Record<string, string>): Promise<AssertedIdentity> {
      const config = await configuration();
      if (input.query.error !== undefined) {
        throw new SsoRefusal('idp-error', SSO_MESSAGES.idpRefused);
      }
      let claims: Record<string, unknown>;
      try {
        const tokens = await client.authorizationCodeGrant(
          config,
          input.url,
          {
            pkceCodeVerifier: pending.verifier,
            expectedState: pending.state,
            expectedNonce: pending.nonce,
            idTokenExpected: true,
          },
          { redirect_uri: options.callbackUrl },
        );
        const idClaims = tokens.claims();
        if (!idClaims) throw new SsoRefusal('signature', SSO_MESSAGES.responseInvalid);
        claims = { ...idClaims };
        if (config.serverMetadata().userinfo_endpoint) {
          // Checked to be about the ID token's subject (openid-client refuses any other).
          const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
          claims = { ...info, ...idClaims, ...pickProfile(info) };
        }
      } catch (err) {
        throw refusalFor(err, options.campusName);
      } finally {
        jwksCache = client.getJwksCache(config) ?? jwksCache;
      }
      return identityFrom(claims, settings.affiliationClaim ?? SSO_DEFAULT_AFFILIATION_CLAIM);
    },
  };
}

/** Userinfo's profile claims win over the ID token's (some providers put stale ones in the token). */
function pickProfile(info: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['email', 'email_verified', 'given_name', 'family_name', 'name']) {
    if (info[k] !== undefined) out[k] = info[k];
  }
  return out;
}

/**
 * E-mail, names and affiliations from the claims. An address the provider says is not verified
 * (`email_verified: false`) is refused; one without the claim is accepted, since a university's
 * provider is the authority for its own addresses and many never send it (docs/decisions.md).
 */
export function identityFrom(claims: Record<string, unknown>, affiliationClaim: string): AssertedIdentity {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email.includes('@') || claims.email_verified === false || claims.email_verified === 'false') {
    throw new SsoRefusal('missing-email', SSO_MESSAGES.emailMissing);
  }
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const raw = claims[affiliationClaim];
  const affiliations = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[\s,]+/) : [])
    .filter((v): v is string => typeof v === 'string' && v !== '')
    .map((v) => v.trim());
  return {
    email,
    givenName: text(claims.given_name),
    familyName: text(claims.family_name),
    affiliations,
  };
}

/** openid-client's failures as refusals; the student reads the message, never the details. */
function refusalFor(err: unknown, campusName: string): SsoRefusal {
  if (err instanceof SsoRefusal) return err;
  if (err instanceof client.AuthorizationResponseError) {
    return new SsoRefusal('idp-error', SSO_MESSAGES.idpRefused, { cause: err });
  }
  if (err instanceof client.ResponseBodyError) {
    // The token endpoint refused the code (used, expired, or another client's).
    return new SsoRefusal('idp-error', SSO_MESSAGES.responseInvalid, { cause: err });
  }
  const code = (err as { code?: unknown }).code;
  const cause = (err as { cause?: { claim?: unknown } }).cause;
  const text = `${String(code ?? '')} ${err instanceof Error ? err.message : ''}`;
  if (typeof cause?.claim === 'string') {
    if (cause.claim === 'nonce') return new SsoRefusal('nonce', SSO_MESSAGES.responseInvalid, { cause: err });
    if (cause.claim === 'iss') return new SsoRefusal('issuer', SSO_MESSAGES.responseInvalid, { cause: err });
    if (cause.claim === 'aud' || cause.claim === 'azp')
      return new SsoRefusal('audience', SSO_MESSAGES.responseInvalid, { cause: err });
    if (['exp', 'iat', 'nbf', 'auth_time'].includes(cause.claim))
      return new SsoRefusal('expired', SSO_MESSAGES.responseInvalid, { cause: err });
  }
  if (/state/i.test(text)) return new SsoRefusal('state', SSO_MESSAGES.stateInvalid, { cause: err });
  if (/SIGNATURE|KEY_SELECTION|JWKS|JWS/i.test(text))
    return new SsoRefusal('signature', SSO_MESSAGES.responseInvalid, { cause: err });
  if (err instanceof TypeError || /TIMEOUT|ECONNREFUSED|fetch failed|aborted/i.test(text))
    return new SsoRefusal('unavailable', SSO_MESSAGES.unavailable(campusName), { cause: err });
  return new SsoRefusal('idp-error', SSO_MESSAGES.responseInvalid, { cause: err });
}
