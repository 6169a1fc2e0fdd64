import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearToken, setToken, subscribeToken, TOKEN_KEY } from './token';

/** The browser's window, as much of it as token.ts uses: events and localStorage. */
function fakeWindow() {
  const target = new EventTarget();
  const store = new Map<string, string>();
  let listeners = 0;
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  return Object.assign(target, {
    localStorage: {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
      removeItem: (key: string) => void store.delete(key),
    },
    addEventListener: (...args: Parameters<EventTarget['addEventListener']>) => {
      listeners += 1;
      add(...args);
    },
    removeEventListener: (...args: Parameters<EventTarget['removeEventListener']>) => {
      listeners -= 1;
      remove(...args);
    },
    location: { protocol: 'http:' },
    listenerCount: () => listeners,
  });
}

describe('subscribeToken', () => {
  let win: ReturnType<typeof fakeWindow>;
  beforeEach(() => {
    win = fakeWindow();
    Object.assign(globalThis, { window: win, document: { cookie: '' } });
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'window');
    Reflect.deleteProperty(globalThis, 'document');
  });

  it('tells every subscriber of a change, through one pair of window listeners', () => {
    const calls: string[] = [];
    const offA = subscribeToken(() => calls.push('a'));
    const offB = subscribeToken(() => calls.push('b'));
    const offC = subscribeToken(() => calls.push('c'));
    expect(win.listenerCount()).toBe(2);

    setToken('x.e30.y');
    expect(calls).toEqual(['a', 'b', 'c']);

    offB();
    clearToken();
    expect(calls).toEqual(['a', 'b', 'c', 'a', 'c']);

    offA();
    offC();
    expect(win.listenerCount()).toBe(0);
  });

  it('hears a change made in another tab (storage event) to the token only', () => {
    let calls = 0;
    const off = subscribeToken(() => (calls += 1));
    win.dispatchEvent(Object.assign(new Event('storage'), { key: 'other' }));
    win.dispatchEvent(Object.assign(new Event('storage'), { key: TOKEN_KEY }));
    win.dispatchEvent(Object.assign(new Event('storage'), { key: null }));
    expect(calls).toBe(2);
    off();
  });

  it('keeps a subscriber that subscribed twice until both are undone', () => {
    let calls = 0;
    const listener = () => (calls += 1);
    const off1 = subscribeToken(listener);
    const off2 = subscribeToken(listener);
    setToken('x.e30.y');
    expect(calls).toBe(2);
    off1();
    clearToken();
    expect(calls).toBe(3);
    off2();
    expect(win.listenerCount()).toBe(0);
  });
});
