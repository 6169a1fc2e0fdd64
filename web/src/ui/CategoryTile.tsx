import type { Category } from '@campus/contract';
import { Link } from 'react-router';
import { CategoryIcon } from './icons';

const TONES: Record<Category, string> = {
  LIFESTYLE: 'bg-amber-50 text-amber-800',
  BOOKS: 'bg-sky-50 text-sky-800',
  ELECTRONICS: 'bg-indigo-50 text-indigo-800',
  EVENTS: 'bg-rose-50 text-rose-800',
  CLOTHING: 'bg-fuchsia-50 text-fuchsia-800',
  SERVICES: 'bg-emerald-50 text-emerald-800',
  OTHER: 'bg-slate-100 text-slate-700',
};

export interface CategoryTileProps {
  title: string;
  category: Category;
  /** Router path (e.g. /cat_listing?categories=BOOKS) or, with `plainAnchor`, an href like /#browse-books. */
  to: string;
  plainAnchor?: boolean;
  description?: string;
  /** Navigation state passed with the router link (e.g. `{ categoryPassed: 'BOOKS' }`). */
  state?: unknown;
}

/** A category tile (dashboard and landing). */
export function CategoryTile({ title, category, to, plainAnchor, description, state }: CategoryTileProps) {
  const body = (
    <>
      <span className={`flex h-11 w-11 shrink-0 items-center justify-center rounded-xl ${TONES[category]}`}>
        <CategoryIcon category={category} size={22} />
      </span>
      <span className="min-w-0">
        <span className="block font-semibold text-slate-900">{title}</span>
        {description && <span className="mt-0.5 block text-sm text-slate-600">{description}</span>}
      </span>
    </>
  );
  const className =
    'group flex h-full flex-col items-start gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-card sm:flex-row sm:items-center transition hover:-translate-y-0.5 hover:border-brand-300 hover:shadow-lift';
  return plainAnchor ? (
    <a href={to} className={className}>
      {body}
    </a>
  ) : (
    <Link to={to} state={state} className={className}>
      {body}
    </Link>
  );
}
