import type { CampusSummary } from '@campus/contract';

/**
 * "Find your campus" (features.md §E): students look their campus up by its name ("washington",
 * "michigan state") or by their address ("uw.edu", "@cs.uw.edu", "jane@uw.edu"). Pure functions,
 * so the picker's rules are tested without a browser.
 */

/** Lower case, accents and punctuation other than `.` `@` `-` dropped, spaces collapsed. */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9.@\s-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The domain a query names, when it looks like an address or a domain ("jane@uw.edu", "@uw.edu", "uw.edu"). */
export function domainOf(query: string): string | null {
  const q = normalize(query);
  if (q.includes(' ')) return null;
  if (q.includes('@')) return q.slice(q.lastIndexOf('@') + 1);
  return q.includes('.') ? q : null;
}

/** Whether `domain` is `listed` itself or one of its subdomains (cs.uw.edu is uw.edu's). */
function isWithin(domain: string, listed: string): boolean {
  return domain === listed || domain.endsWith(`.${listed}`);
}

/** How well a campus answers a query: lower is better, null is no match. */
function rank(campus: CampusSummary, query: string): number | null {
  const domain = domainOf(query);
  const domains = campus.emailDomains.map((d) => d.toLowerCase());
  if (domain !== null) {
    // "jane@": the address is still being typed; every campus is still a candidate.
    if (domain === '') return 5;
    if (domains.some((d) => isWithin(domain, d))) return 0;
    if (domains.some((d) => d.startsWith(domain))) return 1;
    return null;
  }
  const q = normalize(query);
  const name = normalize(campus.name);
  if (name === q) return 0;
  // "uw", "umich": the start of an e-mail domain is often what students call their campus.
  if (domains.some((d) => d.startsWith(q))) return 1;
  if (name.startsWith(q)) return 2;
  const words = name.split(' ');
  const parts = q.split(' ');
  if (parts.every((p) => words.some((w) => w.startsWith(p)))) return 3;
  if (name.includes(q)) return 4;
  return null;
}

/**
 * The campuses a query finds, best first (then by name); every campus, by name, for an empty
 * query. `limit` keeps the list short on a deployment of hundreds.
 */
export function findCampuses(campuses: readonly CampusSummary[], query: string, limit = 8): CampusSummary[] {
  if (normalize(query) === '') {
    return [...campuses].sort((a, b) => a.name.localeCompare(b.name)).slice(0, limit);
  }
  return campuses
    .map((campus) => ({ campus, rank: rank(campus, query) }))
    .filter((m): m is { campus: CampusSummary; rank: number } => m.rank !== null)
    .sort((a, b) => a.rank - b.rank || a.campus.name.localeCompare(b.campus.name))
    .slice(0, limit)
    .map((m) => m.campus);
}

/**
 * The campus an address belongs to, by the server's rule (features.md §E): the longest listed
 * domain the address's domain is, or is a subdomain of.
 */
export function campusForEmail(campuses: readonly CampusSummary[], email: string): CampusSummary | null {
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  let best: { campus: CampusSummary; length: number } | null = null;
  for (const campus of campuses) {
    for (const listed of campus.emailDomains) {
      const d = listed.toLowerCase();
      if (isWithin(domain, d) && (best === null || d.length > best.length))
        best = { campus, length: d.length };
    }
  }
  return best?.campus ?? null;
}
