import { z } from './zod.js';

/**
 * Course pages found where students look (features.md §B "Textbooks"): the campus's course codes
 * that have books for sale, for the Books category's "Browse by course" chips and the course card
 * above search results. `GET /listings/courses[?code=]`.
 */

/** At most this many courses, most books first: a campus's chips, not a catalogue. */
export const COURSE_LIST_MAX = 60;

/** One course code of the caller's campus and how many books for it are for sale. */
export interface CourseBooks {
  courseCode: string;
  books: number;
}

export const courseBooksResponse = z.object({
  courseCode: z.string().describe('Normalised, e.g. CSE232'),
  books: z.number().int().describe('Unsold books listed for the course (the course page lists them)'),
});

export const courseListQueryDoc = z.object({
  code: z
    .string()
    .optional()
    .describe('One course, any spacing or case ("cse 232"): its entry, or [] when it has no books'),
});
