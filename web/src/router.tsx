import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout, PublicLayout, RootLayout, type RouteHandle } from './app/layouts';
import { RouteErrorPage } from './app/RouteErrorPage';
import { PageSpinner } from './ui/Spinner';

/** Lazy route module: each page is its own chunk, loaded when first visited. */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

const publicRoutes: RouteObject[] = [
  { path: '/signup', lazy: page(() => import('./features/accounts/pages/SignUpPage')) },
  { path: '/login', lazy: page(() => import('./features/accounts/pages/LoginPage')) },
  { path: '/resetPass', lazy: page(() => import('./features/accounts/pages/ResetPasswordPage')) },
  { path: '/verify', lazy: page(() => import('./features/accounts/pages/VerifyPage')) },
];

const guardedRoutes: RouteObject[] = [
  { path: '/dashboard', lazy: page(() => import('./features/listings/pages/DashboardPage')) },
  { path: '/all_listings', lazy: page(() => import('./features/listings/pages/AllListingsPage')) },
  { path: '/cat_listing', lazy: page(() => import('./features/listings/pages/CategoryListingsPage')) },
  { path: '/single_listing/:id', lazy: page(() => import('./features/listings/pages/SingleListingPage')) },
  { path: '/addlisting', lazy: page(() => import('./features/listings/pages/AddListingPage')) },
  { path: '/personalListings', lazy: page(() => import('./features/listings/pages/PersonalListingsPage')) },
  { path: '/inbox', lazy: page(() => import('./features/chat/pages/InboxPage')) },
  // One route for /chat and /chat/:roomidCreate, so that the first send's switch from /chat to
  // /chat/{roomkey} keeps the screen mounted. Full screen: the chat draws its own header (and the
  // top bar from md up).
  {
    path: '/chat/:roomidCreate?',
    handle: { chrome: 'none' } satisfies RouteHandle,
    lazy: page(() => import('./features/chat/pages/ChatPage')),
  },
  { path: '/changePass', lazy: page(() => import('./features/accounts/pages/ChangePasswordPage')) },
  // The spec lists /nav and /filter as guarded routes without describing any content: /nav was the
  // old navigation bar rendered alone and /filter the filter panel alone. Both now live inside
  // other screens, so these paths redirect there instead of showing an empty page.
  { path: '/nav', element: <Navigate to="/dashboard" replace /> },
  { path: '/filter', element: <Navigate to="/all_listings" replace /> },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      { path: '/', lazy: page(() => import('./features/landing/LandingPage')) },
      {
        element: <PublicLayout />,
        handle: { chrome: 'public' } satisfies RouteHandle,
        children: publicRoutes,
      },
      { element: <AppLayout />, handle: { chrome: 'app' } satisfies RouteHandle, children: guardedRoutes },
      { path: '*', lazy: page(() => import('./pages/NotFoundPage')) },
    ],
  },
];

export const router = createBrowserRouter(routes);
