/**
 * University sign-in (features.md §G), the sso module's front door: OIDC (oidc.ts) or SAML
 * (saml.ts) per campus behind one protocol seam (protocol.ts); routes → service → store. Accounts
 * stays the writer of users: the account rules call its index.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountsService } from '../accounts/index.js';
import type { AppContext } from '../context.js';
import { SsoProtocols } from './protocols.js';
import { ssoRoutes } from './routes.js';
import { SsoService } from './service.js';

export { ssoAddressProblems } from './addresses.js';

export async function registerSso(
  app: FastifyInstance,
  ctx: AppContext,
  accounts: AccountsService,
): Promise<void> {
  const protocols = new SsoProtocols(ctx);
  await protocols.prepare();
  const service = new SsoService(ctx, accounts, protocols);
  await app.register(ssoRoutes(ctx, service, protocols));
}

/**
 * The request as logged (Fastify's own serializer's fields), except that a university sign-in
 * callback's query string (authorization code and state) is cut: no code, token or assertion is
 * ever written to a log. The exchange and the SAML POST carry theirs in the body, never logged.
 */
export function requestLogLine(req: FastifyRequest) {
  const version = req.headers['accept-version'];
  return {
    method: req.method,
    url: req.url.startsWith('/auth/sso/') ? (req.url.split('?')[0] ?? '') : req.url,
    version: typeof version === 'string' ? version : undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}
