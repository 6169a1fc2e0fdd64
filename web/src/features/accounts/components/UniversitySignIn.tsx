import { SSO_MESSAGES } from '@campus/contract';
import { buttonClasses } from '../../../ui/Button';
import { rememberSsoReturn } from '../ssoReturn';
import type { UniversityCampus } from '../university';

/**
 * "Continue with {campus} account" (features.md §G): a plain link to the server, which sends the
 * browser on to the university. Shown only when the campus of the visit offers university sign-in;
 * `divider` adds the "or with your e-mail address" line above the e-mail form.
 */
export function UniversitySignIn({
  campus,
  next,
  divider = true,
}: {
  campus: UniversityCampus | undefined;
  /** Where to land after signing in (kept in this tab until /sso/done). */
  next: string | null;
  divider?: boolean;
}) {
  if (!campus?.sso) return null;
  return (
    <div className="space-y-5">
      <a
        href={`/auth/sso/${encodeURIComponent(campus.slug)}/start`}
        onClick={() => rememberSsoReturn(next)}
        // A long campus name wraps on a phone instead of running off the button.
        className={buttonClasses('primary', 'lg', {
          fullWidth: true,
          className: 'h-auto! min-h-12 py-3 text-center whitespace-normal!',
        })}
        data-testid="university-sign-in"
      >
        {campus.sso.label}
      </a>
      {divider && (
        <p className="flex items-center gap-3 text-sm text-slate-600" aria-hidden="true">
          <span className="h-px flex-1 bg-slate-200" />
          {SSO_MESSAGES.orWithEmail}
          <span className="h-px flex-1 bg-slate-200" />
        </p>
      )}
    </div>
  );
}
