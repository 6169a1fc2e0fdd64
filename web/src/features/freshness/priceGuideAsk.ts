import { normalizeCourseCode, normalizeIsbn, type Category, type Condition } from '@campus/contract';
import type { PriceGuideAsk } from '../../api/freshness';

/** Shortest name worth asking about: one or two letters match too much to mean anything. */
const NAME_MIN = 3;

export interface GuideFields {
  name: string;
  category: Category | '';
  condition: Condition | '' | null;
  courseCode: string;
  isbn: string;
}

/**
 * What to ask GET /listings/price-guide for these form fields, or null while there is not enough
 * (or a half-typed ISBN or course code the server would refuse): a book by ISBN or course, else a
 * category and a name.
 */
export function priceGuideAsk(f: GuideFields): PriceGuideAsk | null {
  if (f.category === '') return null;
  if (f.category === 'BOOKS') {
    const isbn = f.isbn.trim() ? normalizeIsbn(f.isbn) : null;
    const courseCode = f.courseCode.trim() ? normalizeCourseCode(f.courseCode) : null;
    if (isbn || courseCode) return { category: 'BOOKS', isbn, courseCode };
  }
  const query = f.name.trim().replace(/\s+/g, ' ');
  if (query.length < NAME_MIN) return null;
  return { category: f.category, condition: f.condition || null, query };
}
