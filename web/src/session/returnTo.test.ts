/**
 * Where a student lands after logging in (a shared listing's visitor goes back to it): only a path
 * of this app, never another site — `?next=` is in a link anyone can craft, so it must not become
 * an open redirect.
 */
import { describe, expect, it } from 'vitest';
import { fromPathOf, nextQuery, returnPathOf, safeReturnPath } from './returnTo';

describe('return after login', () => {
  it('keeps a path of this app with its query and hash', () => {
    expect(safeReturnPath('/single_listing/12')).toBe('/single_listing/12');
    expect(safeReturnPath('/all_listings?categories=BOOKS#top')).toBe('/all_listings?categories=BOOKS#top');
    expect(returnPathOf(null, nextQuery('/single_listing/12'))).toBe('/single_listing/12');
    expect(returnPathOf({ from: { pathname: '/inbox', search: '?x=1', hash: '' } }, '')).toBe('/inbox?x=1');
  });

  it.each([
    'https://evil.example/single_listing/1',
    '//evil.example/x',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    ' /single_listing/1',
    '/\t/evil.example',
    '/%0a/evil.example'.replace('%0a', '\n'),
    'single_listing/1',
    '',
  ])('refuses %j', (raw) => {
    expect(safeReturnPath(raw)).toBeNull();
    expect(returnPathOf(null, `?next=${encodeURIComponent(raw)}`)).toBeNull();
    expect(fromPathOf({ from: raw })).toBeNull();
  });

  it('never returns to a public screen', () => {
    for (const path of ['/', '/login', '/signup', '/verify', '/resetPass']) {
      expect(safeReturnPath(path), path).toBeNull();
    }
  });

  it('takes the guard state before the parameter', () => {
    expect(returnPathOf({ from: '/saved' }, '?next=%2Fsingle_listing%2F3')).toBe('/saved');
    expect(nextQuery(null)).toBe('');
  });
});
