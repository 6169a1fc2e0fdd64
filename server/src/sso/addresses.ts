import type { CampusSso } from '@campus/contract';

/**
 * With NODE_ENV=production every university sign-in address must be https: (features.md §G): the
 * OIDC issuer (its keys and tokens travel from it), the SAML entry point, and the app's own
 * redirect URI (PUBLIC_URL), where codes and assertions arrive. Outside production plain http: is
 * accepted for local trials and tests. One line per campus, naming it and the setting.
 */
export function ssoAddressProblems(
  campuses: readonly { slug: string; sso: CampusSso | null }[],
  publicUrl: string,
  production: boolean,
): string[] {
  if (!production) return [];
  const problems: string[] = [];
  for (const { slug, sso } of campuses) {
    if (!sso) continue;
    const idp =
      sso.type === 'oidc' ? { name: 'issuer', url: sso.issuer } : { name: 'entryPoint', url: sso.entryPoint };
    if (!idp.url.startsWith('https://')) {
      problems.push(`CAMPUSES ${slug}.sso.${idp.name}: must be an https: address when NODE_ENV=production`);
    } else if (!publicUrl.startsWith('https://')) {
      problems.push(
        `CAMPUSES ${slug}.sso: PUBLIC_URL must be an https: address when NODE_ENV=production (the university sends students back to ${publicUrl}/auth/sso/${slug}/callback)`,
      );
    }
  }
  return problems;
}
