import { CATEGORY_TILES, MOVE_OUT_MESSAGES, inMoveOutSeason } from '@campus/contract';
import { campusLabel, useCampusInfo } from '../../../api/campus';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { ButtonLink } from '../../../ui/Button';
import { CategoryTile } from '../../../ui/CategoryTile';
import { ArrowRightIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { LatestRail } from '../components/LatestRail';
import type { CategoryPageState } from '../navigation';
import { MovingOutShelf } from '../../moving-out/MovingOutShelf';
import { localDay } from '../../moving-out/days';

/**
 * /dashboard (spec §2): Today's Latest Products (GET /listings/recent), Our Categories (tiles to
 * /cat_listing with the category in the query and as state `categoryPassed`), Explore All Products.
 */
export default function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useCurrentUser();
  const campus = useCampusInfo().data;
  // During the campus's move-out season the dashboard leads with the moving-out shelf (§H).
  const season = inMoveOutSeason(campus?.moveOutSeason, localDay(0));

  return (
    <PageContainer>
      {season && (
        <div className="mb-8">
          <MovingOutShelf title={`${MOVE_OUT_MESSAGES.shelfTitle}: it's move-out season`} showEmpty />
        </div>
      )}
      <section className="relative overflow-hidden rounded-3xl bg-brand-800 px-6 py-8 text-white sm:px-10 sm:py-10">
        <div
          aria-hidden="true"
          className="absolute -top-20 -right-16 h-64 w-64 rounded-full bg-brand-600/40"
        />
        <div className="relative max-w-xl">
          <p className="text-sm font-semibold tracking-wide text-accent-300 uppercase">
            Campus Market{campus ? ` · ${campusLabel(campus)}` : ''}
          </p>
          <h1 className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">
            {user ? `Welcome back, ${user.firstName}!` : 'Welcome back!'}
          </h1>
          <p className="mt-2 text-brand-100">
            Find what you need from students nearby, or sell what you don't.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <ButtonLink to="/all_listings" variant="accent">
              View Products
            </ButtonLink>
            <ButtonLink
              to="/addlisting"
              variant="secondary"
              className="border-white/30 bg-white/10 text-white hover:bg-white/20"
            >
              + Sell an item
            </ButtonLink>
          </div>
        </div>
      </section>

      <section aria-labelledby="latest-heading" className="mt-10">
        <div className="mb-4 flex items-end justify-between gap-4">
          <h2 id="latest-heading" className="text-xl font-bold tracking-tight text-slate-900 sm:text-2xl">
            Today's Latest Products
          </h2>
          <ButtonLink to="/all_listings" variant="ghost" size="sm">
            View All <ArrowRightIcon size={16} />
          </ButtonLink>
        </div>
        <LatestRail />
      </section>

      {!season && (
        <div className="mt-10">
          <MovingOutShelf />
        </div>
      )}

      <section aria-labelledby="categories-heading" className="mt-12">
        <h2
          id="categories-heading"
          className="mb-4 text-xl font-bold tracking-tight text-slate-900 sm:text-2xl"
        >
          Our Categories
        </h2>
        <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {CATEGORY_TILES.map((tile) => (
            <li key={tile.category}>
              <CategoryTile
                title={tile.title}
                category={tile.category}
                to={`/cat_listing?categories=${tile.category}`}
                state={{ categoryPassed: tile.category } satisfies CategoryPageState}
              />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="explore-heading" className="mt-12 mb-4">
        <div className="flex flex-col items-start gap-4 rounded-3xl border border-slate-200 bg-white p-6 shadow-card sm:flex-row sm:items-center sm:justify-between sm:p-8">
          <div>
            <h2 id="explore-heading" className="text-xl font-bold tracking-tight text-slate-900 sm:text-2xl">
              Explore All Products
            </h2>
            <p className="mt-1 text-slate-600">
              Search and filter everything students are selling right now.
            </p>
          </div>
          <ButtonLink to="/all_listings" size="lg">
            View Products <ArrowRightIcon size={18} />
          </ButtonLink>
        </div>
      </section>
    </PageContainer>
  );
}
