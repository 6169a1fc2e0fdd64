import { normalizeCourseCode, normalizeIsbn } from '@campus/contract';
import {
  ALL_GROUPS,
  CATEGORY_INDEX,
  CONDITION_CODE,
  categoryGroup,
  type ListingColumns,
} from './index-columns.js';
import type { SearchFilters } from './search-types.js';

/** How a search's filters are applied to the index's slots. */

/**
 * Filter bounds: category and condition bit masks (-1 = any), price range, and the interned
 * course code / ISBN (0 = any; -1 when nothing indexed carries it, so nothing passes).
 */
export interface FilterBounds {
  catMask: number;
  min: number;
  max: number;
  condMask: number;
  course: number;
  isbn: number;
}

export function filterBounds(columns: ListingColumns, filters: SearchFilters): FilterBounds {
  return {
    catMask: filters.categories?.length
      ? filters.categories.reduce((mask, c) => mask | (1 << (CATEGORY_INDEX.get(c) ?? 31)), 0)
      : -1,
    min: filters.minCents ?? Number.NEGATIVE_INFINITY,
    max: filters.maxCents ?? Number.POSITIVE_INFINITY,
    condMask: filters.conditions?.length
      ? filters.conditions.reduce((mask, c) => mask | (1 << (CONDITION_CODE.get(c) ?? 31)), 0)
      : -1,
    course: columns.courseId(filters.courseCode),
    isbn: columns.isbnId(filters.isbn),
  };
}

/** The posting-list groups a search with these filters needs to read. */
export function groupsFor(filters: SearchFilters): number[] {
  if (!filters.categories?.length) return ALL_GROUPS;
  const groups = new Set<number>();
  for (const c of filters.categories) {
    const index = CATEGORY_INDEX.get(c);
    if (index !== undefined) groups.add(categoryGroup(index));
  }
  return [...groups];
}

/** Whether a slot is live, unsold and passes the filters. */
export function filterFn(columns: ListingColumns, filters: SearchFilters): (slot: number) => boolean {
  const { catMask, min, max, condMask, course, isbn } = filterBounds(columns, filters);
  return (slot) => {
    if (columns.alive[slot] !== 1 || columns.sold[slot] !== 0) return false;
    if (catMask !== -1 && (catMask & (1 << (columns.cats[slot] as number))) === 0) return false;
    if (condMask !== -1 && (condMask & (1 << (columns.conds[slot] as number))) === 0) return false;
    if (course !== 0 && columns.courses.data[slot] !== course) return false;
    if (isbn !== 0 && columns.isbns.data[slot] !== isbn) return false;
    const price = columns.prices.data[slot] as number;
    return price >= min && price <= max;
  };
}

/** Live slots passing the filters whose course code or ISBN is the query (normalised). */
export function exactCodeSlots(
  columns: ListingColumns,
  query: string,
  allowed: (slot: number) => boolean,
): Set<number> {
  const found = new Set<number>();
  const courseCode = normalizeCourseCode(query);
  const isbnCode = normalizeIsbn(query);
  const course = courseCode ? (columns.courseIds.get(courseCode) ?? 0) : 0;
  const isbn = isbnCode ? (columns.isbnIds.get(isbnCode) ?? 0) : 0;
  if (course === 0 && isbn === 0) return found;
  const courses = columns.courses.data;
  const isbns = columns.isbns.data;
  for (let slot = columns.size - 1; slot >= 0; slot -= 1) {
    if ((course !== 0 && courses[slot] === course) || (isbn !== 0 && isbns[slot] === isbn)) {
      if (allowed(slot)) found.add(slot);
    }
  }
  return found;
}
