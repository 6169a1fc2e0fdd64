import { FUZZY_SEARCH, normalizeCourseCode, normalizeIsbn } from '@campus/contract';
import Fuse from 'fuse.js';
import { MAX_PATTERN, compilePattern, documentScore, fieldNorm } from './fuse-score.js';

export interface MatchableListing {
  name: string;
  description: string;
  category: string;
  courseCode: string | null;
  isbn: string | null;
}

/**
 * Whether a search for `query` finds this listing, by the search's own rules: a Fuse.js match
 * within the threshold over name, description and category, or a course code / ISBN equal to
 * the query. Used to match new and edited listings against saved searches and wanted posts.
 */
export function queryMatches(query: string, listing: MatchableListing): boolean {
  const q = query.trim().replace(/\s+/g, ' ');
  if (q === '') return true;
  const course = normalizeCourseCode(q);
  if (course !== null && course === listing.courseCode) return true;
  const isbn = normalizeIsbn(q);
  if (isbn !== null && isbn === listing.isbn) return true;
  if (q.length > MAX_PATTERN) {
    const fuse = new Fuse([listing], {
      keys: FUZZY_SEARCH.keys.map((k) => ({ name: k.name, weight: k.weight })),
      threshold: FUZZY_SEARCH.threshold,
      ignoreLocation: FUZZY_SEARCH.ignoreLocation,
    });
    return fuse.search(q).length > 0;
  }
  const fields = {
    lower: [
      listing.name.toLowerCase(),
      listing.description.toLowerCase(),
      listing.category.toLowerCase(),
    ] as const,
    norms: [fieldNorm(listing.name), fieldNorm(listing.description), fieldNorm(listing.category)] as const,
  };
  return documentScore(compilePattern(q), fields) >= 0;
}
