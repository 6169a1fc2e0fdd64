import type { ReactNode } from 'react';
import { CheckIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';

const POINTS = [
  'Only verified university e-mail addresses can join',
  'Zero fees: you keep every dollar',
  'Chat in real time, meet up on campus',
];

/** Centered account form with a trust panel beside it on large screens. */
export function AuthLayout({
  title,
  description,
  icon,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <PageContainer
      width="full"
      className="flex flex-1 items-start justify-center bg-gradient-to-b from-brand-50/70 to-slate-50 lg:items-center"
    >
      <div className="grid w-full max-w-5xl grid-cols-1 overflow-hidden rounded-3xl border border-slate-200 bg-white shadow-lift lg:grid-cols-[1fr_1.1fr]">
        <aside
          aria-hidden="true"
          className="relative hidden flex-col justify-between overflow-hidden bg-brand-800 p-10 text-white lg:flex"
        >
          <div className="absolute -top-24 -right-24 h-72 w-72 rounded-full bg-brand-600/40" />
          <div className="absolute -bottom-32 -left-20 h-80 w-80 rounded-full bg-brand-900/60" />
          <div className="relative">
            <p className="text-sm font-semibold tracking-wide text-accent-300 uppercase">Campus Market</p>
            <p className="mt-4 text-3xl leading-tight font-bold">The marketplace that stays on campus.</p>
          </div>
          <ul className="relative mt-10 space-y-4">
            {POINTS.map((point) => (
              <li key={point} className="flex items-start gap-3 text-brand-50">
                <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-accent-400 text-brand-950">
                  <CheckIcon size={14} strokeWidth={3} />
                </span>
                {point}
              </li>
            ))}
          </ul>
        </aside>
        <div className="px-5 py-8 sm:px-10 sm:py-10">
          {icon && (
            <div className="mb-5 flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
              {icon}
            </div>
          )}
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
          {description && <div className="mt-2 text-slate-600">{description}</div>}
          <div className="mt-8">{children}</div>
          {footer && (
            <div className="mt-8 border-t border-slate-100 pt-6 text-sm text-slate-600">{footer}</div>
          )}
        </div>
      </div>
    </PageContainer>
  );
}
