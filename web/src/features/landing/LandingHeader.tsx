import { useEffect, useId, useState } from 'react';
import { CloseIcon, MenuIcon } from '../../ui/icons';
import { Logo } from '../../ui/Logo';
import { AuthButtons } from './AuthButtons';

export const LANDING_SECTIONS = [
  { id: 'home', label: 'Home' },
  { id: 'features', label: 'Features' },
  { id: 'categories', label: 'Categories' },
  { id: 'how-it-works', label: 'How it works' },
  { id: 'about', label: 'About Us' },
] as const;

/** Landing header: anchor navigation, auth buttons, phone menu toggle (aria-expanded). */
export function LandingHeader() {
  const [open, setOpen] = useState(false);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header
      data-top-bar="plain"
      className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85"
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo />
        <nav aria-label="Sections" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {LANDING_SECTIONS.map((s) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  className="rounded-lg px-3 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                >
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <AuthButtons size="sm" className="hidden lg:flex" />
        <button
          type="button"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((v) => !v)}
          className="inline-flex h-10 w-10 items-center justify-center rounded-xl text-slate-800 hover:bg-slate-100 lg:hidden"
        >
          {open ? <CloseIcon size={22} /> : <MenuIcon size={22} />}
          <span className="sr-only">Menu</span>
        </button>
      </div>
      <div
        id={menuId}
        hidden={!open}
        className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 shadow-lift sm:px-6 lg:hidden"
      >
        <nav aria-label="Sections">
          <ul className="space-y-1">
            {LANDING_SECTIONS.map((s) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  onClick={() => setOpen(false)}
                  className="block rounded-xl px-3 py-3 text-base font-semibold text-slate-800 hover:bg-slate-100"
                >
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <AuthButtons stacked className="mt-3 border-t border-slate-100 pt-4" />
      </div>
    </header>
  );
}
