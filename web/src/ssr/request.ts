/**
 * The request a server render is for (web/src/ssr/entry-server.tsx). In the browser there is
 * none; on the server, the renderer installs a reader backed by AsyncLocalStorage, so modules that
 * need "the current student" during a render (the token, the query cache) get the one of the
 * request being rendered and never another student's.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { TimeBasis } from '../ui/timeBasis';

export interface ServerRequest {
  /** The student's token from the `cm_token` cookie, or null (logged out). */
  token: string | null;
  /** The page's query cache: one per request. */
  queryClient: QueryClient;
  /** Answers the app's GET API calls in-process, as the student. */
  fetch: typeof fetch;
  /** The moment, zone and wording the page's times are drawn with (sent along for hydration). */
  timeBasis: TimeBasis;
}

let reader: () => ServerRequest | undefined = () => undefined;

/** Called once by the server entry. */
export function setServerRequestReader(read: () => ServerRequest | undefined): void {
  reader = read;
}

/** The request being rendered on the server; undefined in the browser. */
export function serverRequest(): ServerRequest | undefined {
  return reader();
}

/**
 * True in the server renderer's build, false in the browser's: a build-time constant (Vite's
 * `import.meta.env.SSR`), so each build drops the other's code paths.
 */
export const isServer: boolean = import.meta.env.SSR;
