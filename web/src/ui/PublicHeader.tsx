import { Link, useLocation } from 'react-router';
import { MESSAGES } from '@campus/contract';
import { logout } from '../session/logout';
import { buttonClasses } from './Button';
import { Logo } from './Logo';

/**
 * Header of the public screens (spec §2): the logo; 'Sign Up' on /login, 'Log Out' on /changePass
 * and /addlisting (when those screens use this header), and 'Login' on the other public screens.
 */
export function PublicHeader() {
  const { pathname } = useLocation();
  let action;
  if (pathname === '/changePass' || pathname === '/addlisting') {
    action = (
      <button type="button" onClick={logout} className={buttonClasses('secondary', 'sm')}>
        Log Out
      </button>
    );
  } else if (pathname === '/login') {
    action = (
      <Link to="/signup" className={buttonClasses('primary', 'sm')}>
        {MESSAGES.signUpLink}
      </Link>
    );
  } else {
    action = (
      <Link to="/login" className={buttonClasses('secondary', 'sm')}>
        Login
      </Link>
    );
  }
  return (
    <header data-top-bar="plain" className="border-b border-slate-200/80 bg-white">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo />
        {action}
      </div>
    </header>
  );
}
