import { QueryClient } from '@tanstack/react-query';
import { isServer, serverRequest } from '../ssr/request';
import { ApiError } from './client';

/** The app's query defaults: no retries on 4xx, at most 2 on network/5xx errors. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}

/**
 * The shared TanStack Query client. In the server renderer there is one cache per request (a
 * module-wide one would show one student's data to the next), so there this is a view of the cache
 * of the request being rendered.
 */
export const queryClient: QueryClient = isServer
  ? new Proxy({} as QueryClient, {
      get(_target, property) {
        const client = serverRequest()?.queryClient;
        if (!client) throw new Error('queryClient used outside a server render');
        const value: unknown = Reflect.get(client, property, client);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(client) : value;
      },
    })
  : createQueryClient();
