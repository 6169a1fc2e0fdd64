import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import { logout } from '../session/logout';
import { cx } from './cx';
import { useQuery } from '@tanstack/react-query';
import { campusLabel, useCampusInfo } from '../api/campus';
import { fetchSafetyMe, safetyKeys } from '../api/safety';
import { useMyUserId } from '../session/useCurrentUser';
import {
  BellIcon,
  ChatIcon,
  CloseIcon,
  HandshakeIcon,
  HeartIcon,
  KeyIcon,
  ListIcon,
  LogOutIcon,
  MegaphoneIcon,
  MenuIcon,
  SearchIcon,
  ShieldIcon,
  UserIcon,
} from './icons';
import { Logo } from './Logo';
import { NotificationBell } from './NotificationBell';
import { SearchBox } from './SearchBox';
import { SettingsMenu } from './SettingsMenu';
import { useUnreadCount } from './unread';

function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs leading-5 font-bold text-white">
      {count > 99 ? '99+' : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cx(
    'inline-flex h-10 items-center gap-1.5 rounded-xl px-3 text-sm font-semibold transition-colors',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  );

const mobileLinkClass = ({ isActive }: { isActive: boolean }) =>
  cx(
    'flex items-center gap-3 rounded-xl px-3 py-3 text-base font-semibold',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-800 hover:bg-slate-100',
  );

export interface TopBarProps {
  /** Overrides the unread count from UnreadCountContext. */
  unreadCount?: number;
  /** Extra content at the right end of the bar (desktop). */
  extra?: ReactNode;
}

/**
 * Logged-in top bar (spec §2): logo to /, search (hidden on /personalListings), My Listings,
 * Chats (+ unread badge), '+ Sell' (hidden on /addlisting), Settings menu, Log Out.
 * Below 768 px the links fold into a menu toggled by an accessible button, and the bottom tab bar
 * (TabBar) carries Home · Search · Sell · Chats · Me. `data-top-bar` tells the toasts its height.
 */
export function TopBar({ unreadCount, extra }: TopBarProps) {
  const { pathname } = useLocation();
  const contextUnread = useUnreadCount();
  const unread = unreadCount ?? contextUnread;
  const [menuOpen, setMenuOpen] = useState(false);
  const userId = useMyUserId();
  const moderator = useQuery({ queryKey: safetyKeys.me, queryFn: fetchSafetyMe, staleTime: 5 * 60_000 }).data
    ?.moderator;
  // The student's own campus (GET /public/campus with their token): one deployment, many campuses.
  const campus = useCampusInfo().data;
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const showSearch = pathname !== '/personalListings';
  const showSell = pathname !== '/addlisting';

  // Close the phone menu on navigation and on Escape.
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    // Escape closes the menu and puts focus back on its button, not on <body>.
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header
      data-top-bar={showSearch ? 'search' : 'plain'}
      className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85"
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-3 sm:gap-3 sm:px-6 lg:gap-6 lg:px-8">
        <Logo className="shrink-0" campus={campus ? campusLabel(campus) : null} />

        {showSearch ? (
          <SearchBox className="hidden flex-1 md:block md:max-w-md" />
        ) : (
          <div className="hidden flex-1 md:block" />
        )}

        <nav aria-label="Main" className="ml-auto hidden items-center gap-1 md:flex">
          <NavLink to="/saved" className={navLinkClass}>
            <HeartIcon size={18} />
            Saved
          </NavLink>
          <NavLink to="/wanted_board" className={navLinkClass}>
            Wanted
          </NavLink>
          <NavLink to="/personalListings" className={navLinkClass}>
            My Listings
          </NavLink>
          <NavLink to="/inbox" className={navLinkClass}>
            Chats
            <UnreadBadge count={unread} />
          </NavLink>
          {showSell && (
            <NavLink
              to="/addlisting"
              className="ml-1 inline-flex h-10 items-center gap-1.5 rounded-xl bg-brand-700 px-4 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
            >
              + Sell
            </NavLink>
          )}
          <NotificationBell />
          <SettingsMenu />
          <button
            type="button"
            onClick={logout}
            className="inline-flex h-10 items-center gap-1.5 rounded-xl px-3 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          >
            <LogOutIcon size={18} />
            Log Out
          </button>
          {extra}
        </nav>

        <div className="ml-auto flex items-center gap-0.5 md:hidden">
          <NotificationBell />
          {/* Saved one tap away on a phone (features.md §B); Wanted is the menu's first entries with it. */}
          <NavLink
            to="/saved"
            aria-label="Saved"
            className={({ isActive }) =>
              cx(
                'inline-flex h-10 w-10 items-center justify-center rounded-xl',
                isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-800 hover:bg-slate-100',
              )
            }
          >
            <HeartIcon size={22} />
          </NavLink>
          {/* No "+ Sell" here: on a phone Sell is a tab of the bottom tab bar (TabBar). */}
          <button
            ref={menuButton}
            type="button"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((v) => !v)}
            className="relative inline-flex h-10 w-10 items-center justify-center rounded-xl text-slate-800 hover:bg-slate-100"
          >
            {menuOpen ? <CloseIcon size={22} /> : <MenuIcon size={22} />}
            {/* No unread dot: the Chats tab of the tab bar shows (and names) the count on a phone. */}
            <span className="sr-only">Menu</span>
          </button>
        </div>
      </div>

      {showSearch && (
        <div className="px-4 pb-3 sm:px-6 md:hidden">
          <SearchBox />
        </div>
      )}

      <nav
        id={menuId}
        aria-label="Main"
        hidden={!menuOpen}
        // The menu lives in the sticky header: on a short phone it scrolls inside itself, between
        // the top bar (at most 8 rem) and the tab bar, so Log Out stays reachable.
        className="max-h-[calc(100dvh-8rem-var(--tab-bar-space))] overflow-y-auto overscroll-contain border-t border-slate-200 bg-white px-4 py-3 shadow-lift sm:px-6 md:hidden"
      >
        {campus && (
          <p className="px-3 pb-2 text-sm text-slate-600">
            Your campus: <span className="font-semibold text-slate-900">{campusLabel(campus)}</span>
          </p>
        )}
        <ul className="space-y-1">
          <li>
            <NavLink to="/personalListings" className={mobileLinkClass}>
              <ListIcon className="text-brand-700" /> My Listings
            </NavLink>
          </li>
          <li>
            <NavLink to="/saved" className={mobileLinkClass}>
              <HeartIcon className="text-brand-700" /> Saved
            </NavLink>
          </li>
          <li>
            <NavLink to="/saved_searches" className={mobileLinkClass}>
              <SearchIcon className="text-brand-700" /> Saved searches
            </NavLink>
          </li>
          <li>
            <NavLink to="/wanted_board" className={mobileLinkClass}>
              <MegaphoneIcon className="text-brand-700" /> Wanted
            </NavLink>
          </li>
          <li>
            <NavLink to="/inbox" className={mobileLinkClass}>
              <ChatIcon className="text-brand-700" /> Chats <UnreadBadge count={unread} />
            </NavLink>
          </li>
          <li className="pt-2">
            <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Settings</p>
            {userId !== null && (
              <NavLink to={`/u/${userId}`} className={mobileLinkClass}>
                <UserIcon className="text-brand-700" /> My profile
              </NavLink>
            )}
            <NavLink to="/my-deals" className={mobileLinkClass}>
              <HandshakeIcon className="text-brand-700" /> Your deals
            </NavLink>
            <NavLink to="/changePass" className={mobileLinkClass}>
              <KeyIcon className="text-brand-700" /> Change your password
            </NavLink>
            <NavLink to="/settings/notifications" className={mobileLinkClass}>
              <BellIcon className="text-brand-700" /> Notification settings
            </NavLink>
            <NavLink to="/settings/safety" className={mobileLinkClass}>
              <ShieldIcon className="text-brand-700" /> Safety &amp; privacy
            </NavLink>
            {moderator && (
              <NavLink to="/moderation" className={mobileLinkClass}>
                <ShieldIcon className="text-brand-700" /> Moderation
              </NavLink>
            )}
          </li>
          <li className="border-t border-slate-100 pt-2">
            <button
              type="button"
              onClick={logout}
              className={cx(mobileLinkClass({ isActive: false }), 'w-full text-left')}
            >
              <LogOutIcon className="text-brand-700" /> Log Out
            </button>
          </li>
        </ul>
      </nav>
    </header>
  );
}
