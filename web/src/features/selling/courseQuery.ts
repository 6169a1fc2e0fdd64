import { normalizeCourseCode } from '@campus/contract';

/** A course code written inside a search: "cse 232", "CSE-232 book", "books for mth132". */
const CODE_IN_TEXT = /\b([a-z]{2,8})[\s.\-_]*(\d{2,4}[a-z]?)\b/i;

/**
 * The course code a search names, normalised (CSE232), or null. The whole query first ("cse 232"),
 * then a code inside longer words ("cse 232 textbook"). Words like "iphone 13" look like a code too:
 * the course card shows only when the campus has books for it, so such a guess shows nothing.
 */
export function courseCodeInQuery(query: string): string | null {
  const whole = normalizeCourseCode(query);
  if (whole) return whole;
  const m = CODE_IN_TEXT.exec(query);
  return m ? normalizeCourseCode(`${m[1]}${m[2]}`) : null;
}

/** "1 book", "3 books". */
export const booksLabel = (n: number) => (n === 1 ? '1 book' : `${n} books`);
