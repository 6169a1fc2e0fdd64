import { TIMINGS } from '@campus/contract';
import { withSonner } from './sonnerLoader';

export type ToastId = string | number;

export interface ToastOptions {
  /** Replace an existing toast (e.g. the loading toast of the same action). */
  id?: ToastId;
  duration?: number;
  description?: string;
}

let nextId = 0;
/** Ids are ours (sonner is loaded on first use, so it cannot hand them back synchronously). */
function idFor(options: ToastOptions): ToastId {
  return options.id ?? `toast-${++nextId}`;
}

/** Loading toasts still on screen; sonner never auto-closes loading toasts, so we do (spec §8 durations). */
const pendingLoading = new Set<ToastId>();

/**
 * The app's toasts (spec §8): loading toasts last 3 s (4 s in verification: pass
 * `TIMINGS.verifyToastMs`), success and error toasts 3 s. Pass the loading toast's id to the
 * success/error call to replace it in place.
 */
export const toast = {
  loading(message: string, options: ToastOptions = {}): ToastId {
    const duration = options.duration ?? TIMINGS.toastMs;
    const id = idFor(options);
    withSonner((sonner) => sonner.loading(message, { id, description: options.description, duration }));
    pendingLoading.add(id);
    window.setTimeout(() => {
      if (pendingLoading.delete(id)) withSonner((sonner) => sonner.dismiss(id));
    }, duration);
    return id;
  },
  success(message: string, options: ToastOptions = {}): ToastId {
    if (options.id !== undefined) pendingLoading.delete(options.id);
    const id = idFor(options);
    withSonner((sonner) =>
      sonner.success(message, {
        id,
        description: options.description,
        duration: options.duration ?? TIMINGS.toastMs,
      }),
    );
    return id;
  },
  error(message: string, options: ToastOptions = {}): ToastId {
    if (options.id !== undefined) pendingLoading.delete(options.id);
    const id = idFor(options);
    withSonner((sonner) =>
      sonner.error(message, {
        id,
        description: options.description,
        duration: options.duration ?? TIMINGS.toastMs,
      }),
    );
    return id;
  },
  info(message: string, options: ToastOptions = {}): ToastId {
    if (options.id !== undefined) pendingLoading.delete(options.id);
    const id = idFor(options);
    withSonner((sonner) =>
      sonner.info(message, {
        id,
        description: options.description,
        duration: options.duration ?? TIMINGS.toastMs,
      }),
    );
    return id;
  },
  /**
   * A toast asking to confirm (e.g. spec §2 delete: 'This action is permanent. Delete listing?',
   * Cancel / Delete, 6 s). Resolves true when confirmed, false on cancel or timeout.
   */
  confirm(
    message: string,
    options: { confirmLabel?: string; cancelLabel?: string; duration?: number } = {},
  ): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (value: boolean) => {
        if (!settled) {
          settled = true;
          resolve(value);
        }
      };
      withSonner((sonner) =>
        sonner.warning(message, {
          duration: options.duration ?? TIMINGS.deleteConfirmMs,
          action: { label: options.confirmLabel ?? 'Delete', onClick: () => settle(true) },
          cancel: { label: options.cancelLabel ?? 'Cancel', onClick: () => settle(false) },
          onDismiss: () => settle(false),
          onAutoClose: () => settle(false),
        }),
      );
    });
  },
  dismiss(id?: ToastId): void {
    if (id !== undefined) pendingLoading.delete(id);
    withSonner((sonner) => sonner.dismiss(id));
  },
};
