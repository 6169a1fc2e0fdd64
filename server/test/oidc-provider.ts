import { generateKeyPairSync, randomBytes, type JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID Connect provider (panva's oidc-provider) for tests and the e2e journey, on a
 * loopback port: the university of a test campus. Its own login and consent pages (the provider's
 * development interactions) sign anyone in as the login typed, with the claims given in `accounts`.
 */
export interface TestIdpAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  eduperson_scoped_affiliation?: string[];
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Login name → claims; change it between sign-ins as a test needs. */
  accounts: Map<string, TestIdpAccount>;
  /**
   * Follows an authorization URL through the provider's own pages as `login` (login form, then
   * consent) and answers where the provider sends the browser back (the app's callback URL).
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export interface TestIdpOptions {
  redirectUris: string[];
  accounts?: Record<string, TestIdpAccount>;
  /** Claims for a login not in `accounts` (the e2e provider: anyone typing a name is a student). */
  accountFor?: (login: string) => TestIdpAccount | undefined;
  /**
   * Publish another key under the signing key's id: every ID token then fails its signature
   * check at the relying party (a token "signed by another key" than the issuer's published one).
   */
  publishWrongKey?: boolean;
  /** A fixed port (the e2e set-up); default any free loopback port. */
  port?: number;
  host?: string;
}

function signingKey(kid: string): JsonWebKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
}

function publicPart(jwk: JsonWebKey): JsonWebKey {
  const { kty, n, e, kid, alg, use } = jwk as JsonWebKey & { kid: string; alg: string; use: string };
  return { kty, n, e, kid, alg, use } as JsonWebKey;
}

export async function startTestIdp(options: TestIdpOptions): Promise<TestIdp> {
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const clientId = 'campus-market';
  const clientSecret = randomBytes(24).toString('hex');
  const key = signingKey('campus-idp-1');
  const wrongKey = publicPart(signingKey('campus-idp-1'));

  // The issuer names the port, so the provider is made after the server listens.
  const serve: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const server = createServer((req, res) => serve.handler?.(req, res));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx, sub) {
      const claims = accounts.get(sub) ?? options.accountFor?.(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...claims }) };
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'eduperson_scoped_affiliation'],
    },
    jwks: { keys: [key as never] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();
  serve.handler = (req, res) => {
    if (options.publishWrongKey && req.url?.split('?')[0] === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/jwk-set+json' });
      res.end(JSON.stringify({ keys: [wrongKey] }));
      return;
    }
    callback(req, res);
  };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signIn: (authorizationUrl, login) => followSignIn(issuer, authorizationUrl, login),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser in miniature: cookies of the provider, redirects, and its two forms. */
async function followSignIn(issuer: string, authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  let next = authorizationUrl;
  let body: string | undefined;
  for (let step = 0; step < 20; step += 1) {
    const res = await send(
      next,
      body ? { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {},
    );
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      const target = new URL(location, next);
      if (!target.href.startsWith(issuer)) return target;
      next = target.href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action)
      throw new Error(`The provider answered ${res.status}: ${html.slice(0, 300)}`);
    next = new URL(action.replace(/&amp;/g, '&'), next).href;
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString()
      : new URLSearchParams({ prompt: 'consent' }).toString();
  }
  throw new Error('The provider did not send the browser back within 20 steps');
}
