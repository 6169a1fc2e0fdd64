import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { cx } from './cx';
import { SearchIcon } from './icons';

/**
 * Top-bar search (spec §2, §5): Enter submits only a non-empty trimmed query, navigating to
 * /all_listings?query=…; clearing the box removes the `query` parameter from the current URL.
 * It searches everything: the current page's filters (a category page's category, a price) are
 * not carried over, they apply only when chosen on the results page.
 */
export function SearchBox({ className }: { className?: string }) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const urlQuery = params.get('query') ?? '';
  const [text, setText] = useState(urlQuery);
  const inputId = useId();

  // Follow the URL when it changes (back/forward, links).
  useEffect(() => setText(urlQuery), [urlQuery]);

  function onChange(value: string) {
    setText(value);
    if (value === '' && params.has('query')) {
      const next = new URLSearchParams(params);
      next.delete('query');
      setParams(next, { replace: true, state: location.state });
    }
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const query = text.trim();
    if (!query) return;
    navigate({ pathname: '/all_listings', search: `?${new URLSearchParams({ query }).toString()}` });
  }

  return (
    <form role="search" onSubmit={onSubmit} className={cx('relative', className)}>
      <label htmlFor={inputId} className="sr-only">
        Search listings
      </label>
      <SearchIcon
        size={18}
        className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-slate-500"
      />
      <input
        id={inputId}
        type="search"
        value={text}
        onChange={(e) => onChange(e.target.value)}
        placeholder="Search textbooks, bikes, tutoring…"
        enterKeyHint="search"
        autoComplete="off"
        className="h-10 w-full rounded-full border border-slate-300 bg-slate-50 pr-4 pl-10 text-base text-slate-900 placeholder:text-slate-500 hover:border-slate-400 focus:border-brand-600 focus:bg-white focus:ring-4 focus:ring-brand-100 focus:outline-none focus-visible:outline-none sm:text-sm"
      />
    </form>
  );
}
