/**
 * Shared between the boot script (which starts the first API calls while the entry chunk is still
 * downloading) and the API client (which uses those answers instead of asking again).
 */
export interface PrefetchedCall {
  /** Bearer token the call was sent with (the client only reuses a call made with its own token). */
  token: string | null;
  /** performance.now() when it was started. */
  startedAt: number;
  response: Promise<Response>;
}

export const PREFETCH_GLOBAL = '__campusPrefetch';

/** A prefetched call is only reused shortly after the page loaded (never stale data later on). */
export const PREFETCH_MAX_AGE_MS = 10_000;

type PrefetchWindow = Window & { [PREFETCH_GLOBAL]?: Map<string, PrefetchedCall> };

/**
 * The boot script's answer for this GET, if it started one with the same token within the last few
 * seconds; each answer is handed out once (a later refetch asks the server again).
 */
export function takePrefetched(url: string, token: string | null): Promise<Response> | null {
  if (typeof window === 'undefined') return null; // the server renderer
  const calls = (window as PrefetchWindow)[PREFETCH_GLOBAL];
  const call = calls?.get(url);
  if (!calls || !call) return null;
  calls.delete(url);
  if (call.token !== token || performance.now() - call.startedAt > PREFETCH_MAX_AGE_MS) return null;
  return call.response;
}

export function registerPrefetch(url: string, call: PrefetchedCall): void {
  const w = window as PrefetchWindow;
  (w[PREFETCH_GLOBAL] ??= new Map()).set(url, call);
}
