import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { listCourseBooks, sellingKeys } from '../../api/selling';
import { ArrowRightIcon, BookIcon } from '../../ui/icons';
import { booksLabel, courseCodeInQuery } from './courseQuery';

/**
 * Above the results of a search that names a course ("cse 232", "CSE232 textbook"): a card to that
 * course's page, where every book for it is listed cheapest first. Shown only when the campus has
 * books for the course, so a search that merely looks like a code ("iphone 13") shows nothing.
 */
export function CourseMatchCard({ query }: { query: string }) {
  const code = courseCodeInQuery(query);
  const course = useQuery({
    queryKey: sellingKeys.course(code ?? ''),
    queryFn: ({ signal }) => listCourseBooks(code ?? undefined, signal),
    enabled: code !== null,
  });
  const match = code ? course.data?.find((c) => c.courseCode === code) : undefined;
  if (!match) return null;
  return (
    <Link
      to={`/course/${match.courseCode}`}
      className="mb-4 flex items-center gap-3 rounded-2xl border border-brand-200 bg-brand-50 p-4 text-slate-900 transition-colors hover:border-brand-300 hover:bg-brand-100"
    >
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-white text-brand-700">
        <BookIcon size={22} />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-semibold">
          Course page: {match.courseCode} — {booksLabel(match.books)}
        </span>
        <span className="block text-sm text-slate-700">Every book for this course, cheapest first</span>
      </span>
      <ArrowRightIcon size={20} className="shrink-0 text-brand-700" />
    </Link>
  );
}
