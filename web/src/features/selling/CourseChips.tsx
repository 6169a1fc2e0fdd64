import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { listCourseBooks, sellingKeys } from '../../api/selling';
import { booksLabel } from './courseQuery';

/**
 * "Browse by course" on the Books category: a chip per course code of the campus with books for
 * sale, most books first, each opening its course page. One row that scrolls sideways on a phone,
 * wrapping on wider screens. Nothing while loading or when no book names a course.
 */
export function CourseChips() {
  const courses = useQuery({
    queryKey: sellingKeys.courses,
    queryFn: ({ signal }) => listCourseBooks(undefined, signal),
  });
  const list = courses.data ?? [];
  if (list.length === 0) return null;
  return (
    <nav aria-labelledby="course-chips-heading" className="mb-6">
      <h2 id="course-chips-heading" className="text-sm font-semibold text-slate-700">
        Browse by course
      </h2>
      <ul className="-mx-4 mt-2 flex gap-2 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
        {list.map((c) => (
          <li key={c.courseCode} className="shrink-0">
            <Link
              to={`/course/${c.courseCode}`}
              className="inline-flex min-h-11 items-center gap-2 rounded-full border border-slate-200 bg-white px-4 text-sm font-semibold text-slate-900 shadow-xs transition-colors hover:border-brand-300 hover:bg-brand-50"
            >
              {c.courseCode}
              <span className="font-normal text-slate-600">{booksLabel(c.books)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
