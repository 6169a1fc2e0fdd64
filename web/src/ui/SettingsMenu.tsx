import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { cx } from './cx';
import { useQuery } from '@tanstack/react-query';
import { fetchSafetyMe, safetyKeys } from '../api/safety';
import { useMyUserId } from '../session/useCurrentUser';
import {
  BellIcon,
  ChevronDownIcon,
  HandshakeIcon,
  KeyIcon,
  SettingsIcon,
  ShieldIcon,
  UserIcon,
} from './icons';

/** Accessible menu button (WAI-ARIA menu pattern) with the Settings entries of the top bar. */
export function SettingsMenu() {
  const [open, setOpen] = useState(false);
  const userId = useMyUserId();
  const moderator = useQuery({ queryKey: safetyKeys.me, queryFn: fetchSafetyMe, staleTime: 5 * 60_000 }).data
    ?.moderator;
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const buttonId = useId();

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointerDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }

  function onMenuKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      list[(index + 1) % list.length]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      list[(index - 1 + list.length) % list.length]?.focus();
    } else if (e.key === 'Home') {
      e.preventDefault();
      list[0]?.focus();
    } else if (e.key === 'End') {
      e.preventDefault();
      list[list.length - 1]?.focus();
    } else if (e.key === 'Tab') {
      close(false);
    }
  }

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className={cx(
          'inline-flex h-10 items-center gap-1.5 rounded-xl px-3 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-900',
          open && 'bg-slate-100 text-slate-900',
        )}
      >
        <SettingsIcon size={18} />
        Settings
        <ChevronDownIcon size={16} className={cx('transition-transform', open && 'rotate-180')} />
      </button>
      <div
        ref={menuRef}
        id={menuId}
        role="menu"
        aria-labelledby={buttonId}
        hidden={!open}
        onKeyDown={onMenuKeyDown}
        className="absolute right-0 z-40 mt-2 w-60 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lift"
      >
        {userId !== null && (
          <Link
            role="menuitem"
            to={`/u/${userId}`}
            tabIndex={-1}
            onClick={() => setOpen(false)}
            className="flex items-center gap-2.5 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-800 hover:bg-brand-50 hover:text-brand-800 focus:bg-brand-50 focus:text-brand-800"
          >
            <UserIcon size={18} />
            My profile
          </Link>
        )}
        <Link
          role="menuitem"
          to="/my-deals"
          tabIndex={-1}
          onClick={() => setOpen(false)}
          className="flex items-center gap-2.5 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-800 hover:bg-brand-50 hover:text-brand-800 focus:bg-brand-50 focus:text-brand-800"
        >
          <HandshakeIcon size={18} />
          Your deals
        </Link>
        <Link
          role="menuitem"
          to="/changePass"
          tabIndex={-1}
          onClick={() => setOpen(false)}
          className="flex items-center gap-2.5 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-800 hover:bg-brand-50 hover:text-brand-800 focus:bg-brand-50 focus:text-brand-800"
        >
          <KeyIcon size={18} />
          Change your password
        </Link>
        <Link
          role="menuitem"
          to="/settings/safety"
          tabIndex={-1}
          onClick={() => setOpen(false)}
          className="flex items-center gap-2.5 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-800 hover:bg-brand-50 hover:text-brand-800 focus:bg-brand-50 focus:text-brand-800"
        >
          <ShieldIcon size={18} />
          Safety &amp; privacy
        </Link>
        {moderator && (
          <Link
            role="menuitem"
            to="/moderation"
            tabIndex={-1}
            onClick={() => setOpen(false)}
            className="flex items-center gap-2.5 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-800 hover:bg-brand-50 hover:text-brand-800 focus:bg-brand-50 focus:text-brand-800"
          >
            <ShieldIcon size={18} />
            Moderation
          </Link>
        )}
        <Link
          role="menuitem"
          to="/settings/notifications"
          tabIndex={-1}
          onClick={() => setOpen(false)}
          className="flex items-center gap-2.5 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-800 hover:bg-brand-50 hover:text-brand-800 focus:bg-brand-50 focus:text-brand-800"
        >
          <BellIcon size={18} />
          Notification settings
        </Link>
      </div>
    </div>
  );
}
