import { useState } from 'react';
import { MESSAGES } from '@campus/contract';
import { Button } from '../ui/Button';
import { ErrorState } from '../ui/ErrorState';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { useRouteFailure } from './routing';

/**
 * A screen that failed inside the app frame (its code chunk could not load, e.g. offline, or it
 * threw): the top bar stays and the page area says what happened, with a retry.
 * A failed chunk is remembered by the router and the browser, so retrying reloads the page, and
 * only once the browser is back online (an offline reload would lose the whole app).
 */
export function PageErrorState() {
  const error = useRouteFailure();
  const [stillOffline, setStillOffline] = useState(false);
  useDocumentTitle(MESSAGES.pageLoadFailed);
  if (import.meta.env.DEV) console.error(error);

  return (
    <main id="main" tabIndex={-1} className="mx-auto w-full max-w-3xl px-4 py-10 outline-none sm:px-6">
      <h1 className="sr-only">{MESSAGES.pageLoadFailed}</h1>
      <ErrorState
        title={MESSAGES.pageLoadFailed}
        description={
          <>
            <p>{MESSAGES.pageLoadFailedHint}</p>
            {stillOffline && <p className="mt-2 font-semibold">You still seem to be offline.</p>}
          </>
        }
        onRetry={() => {
          if (!navigator.onLine) setStillOffline(true);
          else window.location.reload();
        }}
      />
      <div className="mt-4 flex justify-center">
        <Button variant="ghost" onClick={() => window.history.back()}>
          Go back
        </Button>
      </div>
    </main>
  );
}
