import { SELLING_MESSAGES, type CourseBooks, type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  searchEngines,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { postListing, validFields } from './testing.js';

const book = (courseCode: string, name = `Book for ${courseCode}`) =>
  validFields({ name, category: 'BOOKS', courseCode, price: '20' });

/**
 * GET /listings/courses (features.md §B "Textbooks", §E): the campus's course codes with books for
 * sale and their counts, for the Books chips and the course card of a search. Students only; never
 * another campus's courses; what the course page lists (no sold, removed or blocked sellers' books).
 */
describe.each(searchEngines)('course codes with books ($name)', ({ dialect, env: engineEnv }) => {
  let t: TestApp;
  let msuSeller: Student;
  let msuOther: Student;
  let msuViewer: Student;
  let uwSeller: Student;
  let uwViewer: Student;
  let soldBook: Listing;

  const get = (s: Student, url: string) => asStudent(t, s, { method: 'GET', url });
  const courses = async (s: Student, query = '') => {
    const res = await get(s, `/listings/courses${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as CourseBooks[];
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { ...TWO_CAMPUSES, ...engineEnv }, jobWorker: false });
    msuSeller = await createStudent(t);
    msuOther = await createStudent(t);
    msuViewer = await createStudent(t);
    uwSeller = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    uwViewer = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    await postListing(t, msuSeller, book('CSE 232'));
    await postListing(t, msuSeller, book('cse232', 'Data structures notes'));
    await postListing(t, msuOther, book('MTH132'));
    soldBook = await postListing(t, msuSeller, book('PSY101'));
    // Not a book, or a book without a course: no chip.
    await postListing(t, msuSeller, validFields({ name: 'Desk lamp', category: 'LIFESTYLE' }));
    await postListing(t, msuSeller, validFields({ name: 'Novel', category: 'BOOKS' }));
    // The other campus teaches CSE232 too, and a course MSU does not list.
    await postListing(t, uwSeller, book('CSE232'));
    await postListing(t, uwSeller, book('INFO200'));
    const sold = await asStudent(t, msuSeller, { method: 'PUT', url: `/listings/sold/${soldBook.id}` });
    expect(sold.statusCode, sold.body).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the campus courses with unsold books, most books first', async () => {
    expect(await courses(msuViewer)).toEqual([
      { courseCode: 'CSE232', books: 2 },
      { courseCode: 'MTH132', books: 1 },
    ]);
  });

  it("never shows another campus's courses or counts its books", async () => {
    expect(await courses(uwViewer)).toEqual([
      { courseCode: 'CSE232', books: 1 },
      { courseCode: 'INFO200', books: 1 },
    ]);
    expect(await courses(msuViewer, '?code=INFO200')).toEqual([]);
  });

  it('answers one course for ?code= in any spacing or case, [] when it has no books', async () => {
    expect(await courses(msuViewer, '?code=cse%20232')).toEqual([{ courseCode: 'CSE232', books: 2 }]);
    expect(await courses(msuViewer, '?code=Mth-132')).toEqual([{ courseCode: 'MTH132', books: 1 }]);
    expect(await courses(msuViewer, '?code=PSY101')).toEqual([]);
    expect(await courses(msuViewer, '?code=')).toHaveLength(2);
  });

  it('refuses a code that is not one with a message saying how to write it', async () => {
    for (const code of ['calculus', '232', 'CSE', 'x'.repeat(300)]) {
      const res = await get(msuViewer, `/listings/courses?code=${encodeURIComponent(code)}`);
      expect(res.statusCode, code).toBe(400);
      expect(res.json().message).toBe(SELLING_MESSAGES.courseCodeInvalid);
    }
  });

  it('leaves out the books of a seller the viewer blocked, as the course page does', async () => {
    const block = await asStudent(t, msuViewer, { method: 'PUT', url: `/users/${msuOther.id}/block` });
    expect(block.statusCode, block.body).toBeLessThan(300);
    expect(await courses(msuViewer)).toEqual([{ courseCode: 'CSE232', books: 2 }]);
    // Only the one who blocked: another student of the campus still sees the course.
    expect((await courses(msuSeller)).map((c) => c.courseCode)).toEqual(['CSE232', 'MTH132']);
  });

  it('refuses anonymous callers and a bad token', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/listings/courses' });
    expect(anonymous.statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/listings/courses',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(forged.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('CSE232');
  });
});
