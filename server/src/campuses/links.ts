/**
 * The address a campus's e-mails link to (features.md §E): a student follows a link into their own
 * campus's site. A campus with `hosts` is served on its first host, with PUBLIC_URL's scheme, port
 * and path (the same deployment answers every host, behind the same proxy: `https://{host}` in
 * production, where PUBLIC_URL is https without a port). A campus without hosts uses PUBLIC_URL.
 */
export function campusBaseUrl(publicUrl: string, campus: { hosts: readonly string[] }): string {
  const host = campus.hosts[0];
  if (!host) return publicUrl;
  const url = new URL(publicUrl);
  // A configured host may carry its own port ("market.uw.edu:8443"); then it wins.
  if (host.includes(':')) url.host = host;
  else url.hostname = host;
  return url.toString().replace(/\/$/, '');
}

/**
 * Every origin the deployment's pages are served from: PUBLIC_URL's and each campus's hosts' (a
 * page on market.uw.edu opens its chat socket from that origin).
 */
export function campusOrigins(
  publicUrl: string,
  campuses: readonly { hosts: readonly string[] }[],
): string[] {
  const origins = new Set([new URL(publicUrl).origin]);
  for (const campus of campuses) {
    for (const host of campus.hosts) origins.add(new URL(campusBaseUrl(publicUrl, { hosts: [host] })).origin);
  }
  return [...origins];
}
