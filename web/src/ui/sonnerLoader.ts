/**
 * Sonner (the toast library, ~10 KB compressed) is not part of the entry chunk: it is loaded the
 * first time a toast is shown. Every toast call goes through `withSonner`, which keeps the calls
 * in order; the `Toaster` mounts sonner's component as soon as the library is requested, and
 * sonner replays toasts created before its component subscribed, so none is lost.
 */
import type * as SonnerModule from 'sonner';

type Sonner = typeof SonnerModule;

let loading: Promise<Sonner> | null = null;
const listeners = new Set<() => void>();

/** Starts (once) loading sonner and tells the mounted `Toaster` to render it. */
export function loadSonner(): Promise<Sonner> {
  if (!loading) {
    loading = import('sonner');
    for (const listener of listeners) listener();
  }
  return loading;
}

export function isSonnerRequested(): boolean {
  return loading !== null;
}

/** The `Toaster` listens to know when to mount sonner's component. */
export function onSonnerRequested(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs `call` with sonner loaded, after every earlier toast call (order kept). */
export function withSonner(call: (sonner: Sonner['toast']) => void): void {
  queue = queue
    .then(() => loadSonner())
    .then((module) => call(module.toast))
    .catch((error: unknown) => console.error('Toast failed', error));
}
