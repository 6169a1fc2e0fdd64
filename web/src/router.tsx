import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { NOTIFICATION_CENTRE_PATH } from '@campus/contract/pages';
import { AppLayout, PublicLayout, RootLayout, type RouteHandle } from './app/layouts';
import { PageErrorState } from './app/PageErrorState';
import { RouteErrorPage } from './app/RouteErrorPage';

/**
 * Lazy route module: each page is its own chunk, loaded when first visited. The tree below is
 * rendered by `AppRoutes` (app/routing.tsx: React Router's declarative mode; `lazy`, `errorElement`
 * and `handle` are supported there, loaders and actions are not).
 */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

const publicRoutes: RouteObject[] = [
  { path: '/signup', lazy: page(() => import('./features/accounts/pages/SignUpPage')) },
  { path: '/login', lazy: page(() => import('./features/accounts/pages/LoginPage')) },
  { path: '/resetPass', lazy: page(() => import('./features/accounts/pages/ResetPasswordPage')) },
  { path: '/verify', lazy: page(() => import('./features/accounts/pages/VerifyPage')) },
  { path: '/sso/done', lazy: page(() => import('./features/accounts/pages/SsoDonePage')) },
];

const guardedRoutes: RouteObject[] = [
  { path: '/dashboard', lazy: page(() => import('./features/listings/pages/DashboardPage')) },
  { path: '/all_listings', lazy: page(() => import('./features/listings/pages/AllListingsPage')) },
  { path: '/cat_listing', lazy: page(() => import('./features/listings/pages/CategoryListingsPage')) },
  { path: '/single_listing/:id', lazy: page(() => import('./features/listings/pages/SingleListingPage')) },
  { path: '/addlisting', lazy: page(() => import('./features/listings/pages/AddListingPage')) },
  { path: '/personalListings', lazy: page(() => import('./features/listings/pages/PersonalListingsPage')) },
  // features.md §B: each its own chunk, so none of them weighs on the first visit. Page paths must
  // not be API GET paths (the server answers those with JSON): hence /wanted_board, /saved_searches
  // and the notification centre's own path. Every path here is in the contract's PAGE_PATHS
  // (router.test.ts), which the server answers with the page on any GET.
  { path: '/edit_listing/:id', lazy: page(() => import('./features/listings/pages/EditListingPage')) },
  { path: '/saved', lazy: page(() => import('./features/selling/SavedPage')) },
  // features.md §H: the campus's moving-out feed (the API's list is /listings/moving-out).
  { path: '/moving_out', lazy: page(() => import('./features/moving-out/MovingOutPage')) },
  { path: '/saved_searches', lazy: page(() => import('./features/selling/SavedSearchesPage')) },
  { path: '/wanted_board', lazy: page(() => import('./features/selling/WantedPage')) },
  { path: '/course/:code', lazy: page(() => import('./features/selling/CoursePage')) },
  { path: '/inbox', lazy: page(() => import('./features/chat/pages/InboxPage')) },
  // One route for /chat and /chat/:roomidCreate, so that the first send's switch from /chat to
  // /chat/{roomkey} keeps the screen mounted. Full screen: the chat draws its own header (and the
  // top bar from md up).
  {
    path: '/chat/:roomidCreate?',
    handle: { chrome: 'none' } satisfies RouteHandle,
    lazy: page(() => import('./app/pages/ChatPage')),
  },
  { path: '/u/:id', lazy: page(() => import('./features/trust/pages/ProfilePage')) },
  { path: '/my-deals', lazy: page(() => import('./features/trust/pages/DealsPage')) },
  { path: '/settings/safety', lazy: page(() => import('./features/safety/SafetySettingsPage')) },
  { path: '/moderation', lazy: page(() => import('./features/safety/ModerationPage')) },
  { path: '/changePass', lazy: page(() => import('./features/accounts/pages/ChangePasswordPage')) },
  {
    path: NOTIFICATION_CENTRE_PATH,
    lazy: page(() => import('./features/notifications/pages/NotificationsPage')),
  },
  {
    path: '/settings/notifications',
    lazy: page(() => import('./features/notifications/pages/NotificationSettingsPage')),
  },
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
    children: [
      { path: '/', lazy: page(() => import('./features/landing/LandingPage')) },
      {
        element: <PublicLayout />,
        handle: { chrome: 'public' } satisfies RouteHandle,
        // A screen that fails (e.g. its chunk cannot load offline) keeps the header.
        children: [{ errorElement: <PageErrorState />, children: publicRoutes }],
      },
      {
        element: <AppLayout />,
        handle: { chrome: 'app' } satisfies RouteHandle,
        children: [{ errorElement: <PageErrorState />, children: guardedRoutes }],
      },
      { path: '*', lazy: page(() => import('./pages/NotFoundPage')) },
    ],
  },
];
