import type { CampusSummary } from '@campus/contract';
import { ButtonLink } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { ArrowRightIcon, CheckIcon } from '../../ui/icons';
import { CampusPicker } from './CampusPicker';
import { signUpHint } from './wording';

/** The sign-up page with a campus already chosen (SignUpPage reads `campus`). */
export function signUpPathFor(campus: CampusSummary): string {
  return `/signup?${new URLSearchParams({ campus: campus.slug }).toString()}`;
}

/**
 * The landing page's "find your campus" card: the picker, then the chosen campus, the addresses
 * it accepts and the way to its sign-up.
 */
export function FindYourCampus({
  campuses,
  chosen,
  onChoose,
  className,
}: {
  campuses: readonly CampusSummary[];
  chosen: CampusSummary | null;
  onChoose: (campus: CampusSummary | null) => void;
  className?: string;
}) {
  const count = campuses.length;
  return (
    <div className={cx('rounded-2xl border border-slate-200 bg-white p-4 shadow-card sm:p-5', className)}>
      <CampusPicker
        campuses={campuses}
        value={chosen}
        onChange={onChoose}
        size="lg"
        hint={`${count} campuses are on Campus Market. Search by name or by your e-mail address's domain.`}
      />
      <div aria-live="polite">
        {chosen && (
          <div className="mt-4 rounded-xl border border-brand-200 bg-brand-50 p-4">
            <p className="flex items-start gap-2 font-semibold text-brand-900">
              <span className="mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-brand-700 text-white">
                <CheckIcon size={13} strokeWidth={3} />
              </span>
              <span>{chosen.name} is on Campus Market</span>
            </p>
            <p className="mt-1 pl-7 text-sm break-words text-brand-900">{signUpHint(chosen)}</p>
            <ButtonLink to={signUpPathFor(chosen)} size="md" className="mt-3 sm:ml-7">
              Continue to sign up <ArrowRightIcon size={18} />
            </ButtonLink>
          </div>
        )}
      </div>
    </div>
  );
}
