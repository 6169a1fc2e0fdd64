import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** Shared TanStack Query client: no retries on 4xx, at most 2 on network/5xx errors. */
export const queryClient = new QueryClient({
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
