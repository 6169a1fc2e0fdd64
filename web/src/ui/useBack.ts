import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * "Back" that never leaves the app: one step back in the app's history, or
 * `fallback` when this page is the first one of the tab (opened from a shared link). The router
 * numbers its history entries (`history.state.idx`, 0 for the first).
 */
export function useBack(fallback = '/dashboard'): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const state: unknown = window.history.state;
    const idx = typeof state === 'object' && state !== null ? (state as { idx?: unknown }).idx : undefined;
    if (typeof idx === 'number' && idx > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}
