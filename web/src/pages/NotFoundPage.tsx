import { MESSAGES } from '@campus/contract';
import { useIsLoggedIn } from '../session/navigation';
import { ButtonLink } from '../ui/Button';
import { LogoMark } from '../ui/Logo';
import { useDocumentTitle } from '../ui/useDocumentTitle';

export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  const loggedIn = useIsLoggedIn();
  return (
    <main
      id="main"
      className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-6 text-center"
    >
      <LogoMark className="h-12 w-12" />
      <p className="mt-6 text-sm font-semibold tracking-wide text-brand-700 uppercase">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">This page sold out</h1>
      <p className="mt-3 max-w-md text-slate-600">
        We couldn't find the page you were looking for. It may have moved, or the link may be mistyped.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {loggedIn ? (
          <ButtonLink to="/dashboard">{MESSAGES.goToDashboard}</ButtonLink>
        ) : (
          <ButtonLink to="/login">Login</ButtonLink>
        )}
        <ButtonLink to="/" variant="secondary">
          Home page
        </ButtonLink>
      </div>
    </main>
  );
}
