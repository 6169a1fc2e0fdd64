import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import { useMyUserId } from '../session/useCurrentUser';
import { CountBadge } from './CountBadge';
import { cx } from './cx';
import { ChatIcon, HomeIcon, PlusIcon, SearchIcon, UserIcon } from './icons';
import { tabForPath, unreadSuffix, type TabId } from './tabs';
import { useUnreadCount } from './unread';

interface Tab {
  id: TabId;
  label: string;
  to: string;
  Icon: ComponentType<{ size?: number; className?: string }>;
}

/**
 * Phone tab bar (below md): Home · Search · Sell · Chats · Me, fixed at the bottom, clear of the
 * home indicator (safe-area inset). Chats carries the live unread count the top bar already gets
 * (UnreadCountContext, fed by the one STOMP link): no polling of its own. The desktop top bar keeps
 * its links; at md and up this bar is not displayed. Pages keep clear of it through
 * `--tab-bar-space` (index.css), which is non-zero only while this bar is in the page on a phone.
 */
export function TabBar() {
  const { pathname } = useLocation();
  const userId = useMyUserId();
  const unread = useUnreadCount();
  const current = tabForPath(pathname, userId);
  const tabs: Tab[] = [
    { id: 'home', label: 'Home', to: '/dashboard', Icon: HomeIcon },
    { id: 'search', label: 'Search', to: '/all_listings', Icon: SearchIcon },
    { id: 'sell', label: 'Sell', to: '/addlisting', Icon: PlusIcon },
    { id: 'chats', label: 'Chats', to: '/inbox', Icon: ChatIcon },
    // Own profile (listings, ratings, edit); until the id is known, the student's own listings.
    { id: 'me', label: 'Me', to: userId !== null ? `/u/${userId}` : '/personalListings', Icon: UserIcon },
  ];

  return (
    <nav
      aria-label="Tab bar"
      data-tab-bar=""
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)] md:hidden"
    >
      <ul className="mx-auto flex h-16 max-w-lg items-stretch">
        {tabs.map(({ id, label, to, Icon }) => {
          const active = current === id;
          const count = id === 'chats' ? unread : 0;
          return (
            <li key={id} className="flex flex-1">
              <Link
                to={to}
                aria-current={active ? 'page' : undefined}
                className={cx(
                  'relative flex min-h-11 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-semibold',
                  active ? 'text-brand-800' : 'text-slate-600 hover:text-slate-900',
                )}
              >
                <span
                  className={cx(
                    'relative inline-flex h-8 w-14 items-center justify-center rounded-full',
                    active && 'bg-brand-50',
                  )}
                >
                  <Icon size={22} />
                  <CountBadge count={count} testId="chats-tab-count" className="-top-1 right-1.5" />
                </span>
                {count > 0 ? (
                  // Named "Chats, 3 unread" as one phrase: the badge is hidden (its bare number would
                  // come first), and a separate suffix would be read as "Chats , 3 unread".
                  <>
                    <span aria-hidden="true">{label}</span>
                    <span className="sr-only">{label + unreadSuffix(count)}</span>
                  </>
                ) : (
                  label
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
