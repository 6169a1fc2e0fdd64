import { useSyncExternalStore } from 'react';
import { isServer, serverRequest } from '../ssr/request';
import { decodeJwt } from './jwt';
import { clearTokenCookie, writeTokenCookie } from './tokenCookie';

/** Local-storage key of the session token (spec §2, §3). */
export const TOKEN_KEY = 'token';

const CHANGE_EVENT = 'campus:token-change';

export function getToken(): string | null {
  // Server render: the token of the request being rendered (its cookie).
  if (isServer) return serverRequest()?.token ?? null;
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  try {
    window.localStorage.setItem(TOKEN_KEY, token);
    writeTokenCookie(token, decodeJwt(token)?.exp);
  } finally {
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }
}

export function clearToken(): void {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
    clearTokenCookie();
  } finally {
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }
}

const tokenListeners = new Set<() => void>();

function notifyTokenListeners(): void {
  for (const listener of [...tokenListeners]) listener();
}

function onStorage(e: StorageEvent): void {
  if (e.key === null || e.key === TOKEN_KEY) notifyTokenListeners();
}

/**
 * Calls `listener` when the token changes in this tab or in another one. One pair of window
 * listeners serves every subscriber: each listing card on a page subscribes (through
 * `useMyUserId`), and adding two window listeners per card added up on a phone.
 */
export function subscribeToken(listener: () => void): () => void {
  const entry = () => listener();
  if (tokenListeners.size === 0) {
    window.addEventListener(CHANGE_EVENT, notifyTokenListeners);
    window.addEventListener('storage', onStorage);
  }
  tokenListeners.add(entry);
  return () => {
    tokenListeners.delete(entry);
    if (tokenListeners.size > 0) return;
    window.removeEventListener(CHANGE_EVENT, notifyTokenListeners);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The stored token, re-rendering when it changes. The server snapshot is the token too: the server
 * rendered the page with the cookie that mirrors it, so hydration sees the same student.
 */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, getToken);
}
