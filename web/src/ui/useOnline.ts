import { useSyncExternalStore } from 'react';

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/**
 * Whether the browser has a network (the `online`/`offline` events; TanStack Query pauses its
 * requests on the same signal, so a screen waiting on one can say "offline" instead of spinning).
 * The server render and hydration assume online.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}
