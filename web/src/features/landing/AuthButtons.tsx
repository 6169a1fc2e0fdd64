import { useLocation } from 'react-router';
import { MESSAGES } from '@campus/contract';
import { useIsLoggedIn } from '../../session/navigation';
import { ButtonLink, type ButtonSize } from '../../ui/Button';
import { ArrowRightIcon } from '../../ui/icons';
import { cx } from '../../ui/cx';

/**
 * Spec §2 landing buttons: with a valid token, 'Go to Dashboard' → /dashboard; otherwise
 * 'Login' → /login and 'Sign Up' → /signup, passing the current path as `from`.
 */
export function AuthButtons({
  size = 'md',
  tone = 'light',
  className,
  stacked,
}: {
  size?: ButtonSize;
  /** light: on white backgrounds; dark: on brand-coloured backgrounds. */
  tone?: 'light' | 'dark';
  className?: string;
  stacked?: boolean;
}) {
  const loggedIn = useIsLoggedIn();
  const { pathname } = useLocation();
  const wrap = cx('flex gap-3', stacked ? 'flex-col' : 'flex-wrap items-center', className);

  if (loggedIn) {
    return (
      <div className={wrap}>
        <ButtonLink
          to="/dashboard"
          size={size}
          variant={tone === 'dark' ? 'accent' : 'primary'}
          fullWidth={stacked}
        >
          {MESSAGES.goToDashboard} <ArrowRightIcon size={18} />
        </ButtonLink>
      </div>
    );
  }
  return (
    <div className={wrap}>
      <ButtonLink
        to="/signup"
        state={{ from: pathname }}
        size={size}
        variant={tone === 'dark' ? 'accent' : 'primary'}
        fullWidth={stacked}
      >
        Sign Up
      </ButtonLink>
      <ButtonLink
        to="/login"
        state={{ from: pathname }}
        size={size}
        variant="secondary"
        fullWidth={stacked}
        className={
          tone === 'dark'
            ? 'border-white/40 bg-white/10 text-white hover:border-white/60 hover:bg-white/20'
            : undefined
        }
      >
        Login
      </ButtonLink>
    </div>
  );
}
