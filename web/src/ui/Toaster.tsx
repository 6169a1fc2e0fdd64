import { lazy, Suspense, useEffect, useState } from 'react';
import { isSonnerRequested, loadSonner, onSonnerRequested } from './sonnerLoader';

const SonnerToaster = lazy(async () => ({ default: (await loadSonner()).Toaster }));

/**
 * Mounted once at the root of the app. Sonner's component (and the library) is only loaded when
 * the first toast is requested, so it stays out of the JavaScript of a first visit.
 */
export function Toaster() {
  const [requested, setRequested] = useState(isSonnerRequested);
  useEffect(() => {
    const off = onSonnerRequested(() => setRequested(true));
    // A toast requested between the first render and this effect.
    if (isSonnerRequested()) setRequested(true);
    return off;
  }, []);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        position="top-center"
        richColors
        closeButton
        offset={16}
        mobileOffset={12}
        toastOptions={{ className: 'font-sans' }}
        containerAriaLabel="Notifications"
      />
    </Suspense>
  );
}
