import { Button, buttonClasses } from '../ui/Button';
import { LogoMark } from '../ui/Logo';
import { useRouteFailure } from './routing';

/** Shown when a route fails to render or its code cannot be loaded (e.g. after a deploy). */
export function RouteErrorPage() {
  const error = useRouteFailure();
  if (import.meta.env.DEV) console.error(error);
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center px-6 text-center">
      <LogoMark className="h-12 w-12" />
      <h1 className="mt-6 text-2xl font-bold text-slate-900">Something went wrong</h1>
      <p className="mt-2 max-w-md text-slate-600">
        The page could not be shown. Reloading usually fixes it; if not, go back to the start.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
        <a href="/" className={buttonClasses('secondary')}>
          Go to the home page
        </a>
      </div>
    </main>
  );
}
