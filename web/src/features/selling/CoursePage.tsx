import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { normalizeCourseCode, SELLING_MESSAGES, type Sort } from '@campus/contract';
import { Button, ButtonLink } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { BookIcon } from '../../ui/icons';
import { PageContainer } from '../../ui/PageContainer';
import { TextField } from '../../ui/TextField';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { SortSelect } from '../listings/components/Filters';
import { ListingsResults } from '../listings/components/ListingsResults';
import { useListingsFeed } from '../listings/hooks/useListingsFeed';

/** Another course: "cse 232" goes to /course/CSE232; a code that is not one says how to write it. */
function CourseJump({ current }: { current: string | null }) {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const code = normalizeCourseCode(value);
    if (!code) {
      setError(SELLING_MESSAGES.courseCodeInvalid);
      return;
    }
    setError(undefined);
    setValue('');
    navigate(`/course/${code}`);
  }
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex items-start gap-2"
      role="search"
      aria-label="Find a course"
    >
      <TextField
        label="Another course"
        name="course"
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setError(undefined);
        }}
        placeholder={current ? `e.g. ${current === 'CSE232' ? 'MTH 132' : 'CSE 232'}` : 'e.g. CSE 232'}
        autoComplete="off"
        error={error}
        containerClassName="w-44 sm:w-56"
      />
      <Button type="submit" variant="secondary" className="mt-7">
        Go
      </Button>
    </form>
  );
}

/**
 * /course/:code (features.md §B "Textbooks"): every book listed for one course, cheapest first by
 * default (a student buying a course book compares prices), with ways forward when there is none.
 */
export default function CoursePage() {
  const { code: raw = '' } = useParams();
  const code = normalizeCourseCode(raw);
  const [sort, setSort] = useState<Sort>('price_asc');
  useDocumentTitle(code ? `Books for ${code}` : 'Course books');
  const feed = useListingsFeed(
    { kind: 'filters', categories: ['BOOKS'], courseCode: code ?? '', sort },
    { enabled: code !== null },
  );
  const wantedLink = code ? `/wanted_board?post=1&category=BOOKS&courseCode=${code}` : '/wanted_board?post=1';
  const sellLink = code ? `/addlisting?category=BOOKS&courseCode=${code}` : '/addlisting?category=BOOKS';

  return (
    <PageContainer>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Course books</p>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            {code ? `Books for ${code}` : 'That is not a course code'}
          </h1>
          <p className="mt-1.5 text-slate-600">
            {code
              ? 'Textbooks, readers and notes students listed for this course.'
              : SELLING_MESSAGES.courseCodeInvalid}
          </p>
        </div>
        <CourseJump current={code} />
      </div>

      {code && (
        <>
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <SortSelect value={sort} onChange={setSort} withRelevance={false} />
            <ButtonLink to={sellLink} variant="secondary" size="sm">
              Sell a book for {code}
            </ButtonLink>
          </div>
          <ListingsResults
            feed={feed}
            label={`Books for ${code}`}
            headingLevel={2}
            empty={() => (
              <EmptyState
                icon={<BookIcon />}
                title={SELLING_MESSAGES.courseEmpty}
                action={
                  <div className="flex flex-wrap justify-center gap-2">
                    <ButtonLink to={wantedLink}>Post a wanted book</ButtonLink>
                    <ButtonLink to={sellLink} variant="secondary">
                      Sell yours
                    </ButtonLink>
                  </div>
                }
              />
            )}
          />
        </>
      )}
    </PageContainer>
  );
}
