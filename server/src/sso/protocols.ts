import type { CampusSso } from '@campus/contract';
import { campusBaseUrl, type Campus } from '../campuses/index.js';
import type { AppContext } from '../context.js';
import { inCampus } from '../db/campus-scope.js';
import { createOidcProtocol } from './oidc.js';
import type { SsoProtocol } from './protocol.js';
import { createSamlProtocol } from './saml.js';
import { loadSamlSpCredentials, type SamlSpCredentials } from './saml-credentials.js';
import * as store from './store.js';

/**
 * The addresses of a campus's university sign-in (docs/university-sign-in.md), on the campus's
 * own site: PUBLIC_URL, or its first host (campusBaseUrl) so its students stay on their site.
 * The university registers the callback (redirect URI / ACS) and the metadata's entity ID.
 */
export function ssoAddresses(publicUrl: string, campus: { slug: string; hosts: readonly string[] }) {
  const base = campusBaseUrl(publicUrl, campus);
  return {
    base,
    startUrl: `${base}/auth/sso/${campus.slug}/start`,
    callbackUrl: `${base}/auth/sso/${campus.slug}/callback`,
    metadataUrl: `${base}/auth/sso/${campus.slug}/metadata`,
    doneUrl: `${base}/sso/done`,
    loginUrl: `${base}/login`,
    homeUrl: `${base}/`,
  };
}

/**
 * One protocol per campus with `sso`, made on first use and kept (campuses change only with a
 * restart): OIDC or SAML as the campus says. The SAML service provider's key is read at start-up
 * (prepare), so a bad SAML_SP_KEY stops the server instead of the first sign-in.
 */
export class SsoProtocols {
  private readonly made = new Map<number, Promise<SsoProtocol>>();

  private credentials: Promise<SamlSpCredentials> | undefined;

  constructor(private readonly ctx: AppContext) {}

  async prepare(): Promise<void> {
    if (this.ctx.campuses.all().some((c) => c.sso?.type === 'saml' && !c.closed))
      await this.samlCredentials();
  }

  for(campus: Campus & { sso: CampusSso }): Promise<SsoProtocol> {
    let protocol = this.made.get(campus.id);
    if (!protocol) {
      protocol = this.make(campus, campus.sso);
      this.made.set(campus.id, protocol);
      // A failure (a key unreadable) is not kept: the next sign-in tries again.
      protocol.catch(() => this.made.delete(campus.id));
    }
    return protocol;
  }

  private samlCredentials(): Promise<SamlSpCredentials> {
    this.credentials ??= loadSamlSpCredentials(this.ctx.config.dataDir, {
      key: this.ctx.config.samlSpKey,
      cert: this.ctx.config.samlSpCert,
    });
    return this.credentials;
  }

  private async make(campus: Campus, sso: CampusSso): Promise<SsoProtocol> {
    const { callbackUrl, metadataUrl } = ssoAddresses(this.ctx.config.publicUrl, campus);
    if (sso.type === 'oidc') {
      return createOidcProtocol({
        slug: campus.slug,
        campusName: campus.name,
        settings: sso,
        callbackUrl,
        now: this.ctx.clock,
        allowHttp: this.ctx.config.nodeEnv !== 'production',
      });
    }
    const db = this.ctx.db.kysely;
    return createSamlProtocol({
      slug: campus.slug,
      settings: sso,
      callbackUrl,
      spEntityId: metadataUrl,
      credentials: await this.samlCredentials(),
      // The replay cache is the campus's, whatever scope the protocol calls it from.
      rememberAssertion: (id, expiresAtMs) =>
        inCampus(campus.id, () =>
          store.rememberAssertion(db, { assertionId: id, expiresAt: expiresAtMs, now: this.ctx.clock() }),
        ),
      now: this.ctx.clock,
    });
  }
}
