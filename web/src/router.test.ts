import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PAGE_PATHS, isPagePath } from '@campus/contract/pages';
import { routes } from './router';

/** Every path of the router's tree (the catch-all `*` is the not-found page, not an address). */
function pathsOf(tree: readonly RouteObject[]): string[] {
  return tree.flatMap((route) => [
    ...(route.path && route.path !== '*' ? [route.path] : []),
    ...pathsOf(route.children ?? []),
  ]);
}

// The server answers a GET on these with the page (server/src/web/page-paths.test.ts loads each one
// as a reload); a route missing from the contract's list would answer curl and link previews 404.
describe('web routes', () => {
  it('are exactly the page paths the server knows', () => {
    expect([...pathsOf(routes)].sort()).toEqual([...PAGE_PATHS].sort());
  });

  it('match addresses the way the router does', () => {
    expect(isPagePath('/')).toBe(true);
    expect(isPagePath('/single_listing/12')).toBe(true);
    expect(isPagePath('/single_listing/12/')).toBe(true);
    expect(isPagePath('/Dashboard')).toBe(true);
    expect(isPagePath('/chat')).toBe(true);
    expect(isPagePath('/chat/3:7')).toBe(true);
    expect(isPagePath('/single_listing')).toBe(false);
    expect(isPagePath('/notifications')).toBe(false);
    expect(isPagePath('/listings')).toBe(false);
    expect(isPagePath('/dashboardx')).toBe(false);
  });
});
