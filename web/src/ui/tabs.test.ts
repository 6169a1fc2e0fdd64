import { describe, expect, it } from 'vitest';
import { tabForPath, unreadSuffix } from './tabs';

describe('phone tab bar: the tab a page belongs to', () => {
  it('marks the five tabs on their own pages', () => {
    expect(tabForPath('/dashboard', 7)).toBe('home');
    expect(tabForPath('/all_listings', 7)).toBe('search');
    expect(tabForPath('/addlisting', 7)).toBe('sell');
    expect(tabForPath('/inbox', 7)).toBe('chats');
    expect(tabForPath('/u/7', 7)).toBe('me');
  });

  it('keeps browsing under Search and the student’s own area under Me', () => {
    expect(tabForPath('/cat_listing', 7)).toBe('search');
    expect(tabForPath('/course/CSE231', 7)).toBe('search');
    expect(tabForPath('/personalListings', 7)).toBe('me');
    expect(tabForPath('/my-deals', 7)).toBe('me');
    expect(tabForPath('/settings/notifications', 7)).toBe('me');
    expect(tabForPath('/changePass', 7)).toBe('me');
  });

  it('marks no tab on another student’s profile or a listing', () => {
    expect(tabForPath('/u/8', 7)).toBeNull();
    expect(tabForPath('/u/7', null)).toBeNull();
    expect(tabForPath('/u/70', 7)).toBeNull();
    expect(tabForPath('/single_listing/3', 7)).toBeNull();
    expect(tabForPath('/saved', 7)).toBeNull();
  });
});

describe('Chats tab name', () => {
  it('says how many messages are unread, and nothing when none are', () => {
    expect(`Chats${unreadSuffix(3)}`).toBe('Chats, 3 unread');
    expect(`Chats${unreadSuffix(0)}`).toBe('Chats');
  });
});
