import type { QueryClient } from '@tanstack/react-query';
// Types only: the boot script imports this module and must not carry the app's code.
import type { SentClock } from '../ui/timeBasis';

/**
 * Where the server puts the dehydrated query state of a server-rendered page: a
 * `<script type="application/json">` block (data, not code: the CSP allows no inline script).
 */
export const SSR_STATE_ID = 'cm-ssr-state';

/** Window property where the boot script records early typing on a rendered page (earlyInput.ts). */
export const EARLY_INPUT_GLOBAL = '__campusEarlyInput';

/** What the browser needs of TanStack's dehydrated state (only answered queries are sent). */
interface SentState {
  queries?: Array<{ queryKey: readonly unknown[]; state: { data: unknown; dataUpdatedAt: number } }>;
  /** When and where the page was rendered (ui/timeBasis.ts). */
  clock?: SentClock;
}

/**
 * Puts the server's answers into the browser's query cache before hydration, and returns the moment
 * and zone the page was rendered in (for the first render's times). A few lines instead of
 * TanStack's `hydrate`, which would add ≈ 1.5 KB to every page's entry chunk: the server sends only
 * queries that succeeded, so data and the time it was fetched are all there is to restore.
 */
export function seedQueryCache(client: QueryClient, json: string): SentClock | undefined {
  const sent = JSON.parse(json) as SentState;
  for (const query of sent.queries ?? []) {
    client.setQueryData(query.queryKey, query.state.data, { updatedAt: query.state.dataUpdatedAt });
  }
  return sent.clock;
}
