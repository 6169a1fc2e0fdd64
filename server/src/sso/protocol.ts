/**
 * What a university sign-in protocol (OIDC or SAML) does for the sso module, so the routes, the
 * account rules and the exchange code are written once and each protocol only speaks its own
 * wire format. A protocol never creates sessions or accounts: it turns a callback into the
 * identity the university asserted, or refuses with an SsoRefusal.
 */

/** What the university vouched for, after every check the protocol requires has passed. */
export interface AssertedIdentity {
  /** Lower-cased e-mail address the university asserted. */
  email: string;
  givenName: string | null;
  familyName: string | null;
  /** Every affiliation value asserted (e.g. `student@msu.edu`, `alum`), as sent. */
  affiliations: string[];
}

/** Where to send the browser to sign in, and what must be remembered until the callback. */
export interface SsoStart {
  /** The university's address, with the request in it (OIDC: authorization URL; SAML: Redirect binding). */
  redirectUrl: string;
  /**
   * The key the callback will carry back (OIDC `state`; SAML `RelayState`), random, ≥ 128 bits.
   * The sso module stores `pending` under it, single use, for a few minutes.
   */
  key: string;
  /** Protocol data to check the callback against (OIDC: nonce and PKCE verifier; SAML: request id). */
  pending: Record<string, string>;
}

/** The callback as it arrived: query string for GET, form fields for POST. */
export interface SsoCallbackInput {
  query: Record<string, string>;
  form: Record<string, string>;
  /** The full callback URL the browser came to (OIDC needs it to redeem the code). */
  url: URL;
}

export interface SsoProtocol {
  start(): Promise<SsoStart>;
  /** Every relying-party check, then the asserted identity. `pending` is what start() returned for this key. */
  finish(input: SsoCallbackInput, pending: Record<string, string>): Promise<AssertedIdentity>;
  /** SAML only: the service provider's metadata XML. */
  metadata?(): string;
}

/** Why a sign-in was refused; `message` is shown to the student on a page (never secrets or assertions). */
export class SsoRefusal extends Error {
  constructor(
    readonly reason:
      | 'state'
      | 'nonce'
      | 'signature'
      | 'issuer'
      | 'audience'
      | 'destination'
      | 'expired'
      | 'replay'
      | 'unsolicited'
      | 'missing-email'
      | 'idp-error'
      | 'unavailable',
    message: string,
    /** The library's error, for the server log (never shown to the student). */
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'SsoRefusal';
  }
}
