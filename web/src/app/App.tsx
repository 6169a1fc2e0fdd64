import { StrictMode, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { routes } from '../router';
import { TimeBasisProvider } from '../ui/TimeBasisProvider';
import { Toaster } from '../ui/Toaster';
import { AppRoutes } from './routing';

/**
 * The whole app below its router: the same tree for the browser (main.tsx, `<BrowserRouter>`) and
 * the server renderer (ssr/entry-server.tsx, `<StaticRouter>`), so hydration finds what was sent.
 */
export function App({ client, router }: { client: QueryClient; router: (app: ReactNode) => ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={client}>
        <TimeBasisProvider>
          {router(<AppRoutes routes={routes} />)}
          <Toaster />
        </TimeBasisProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
