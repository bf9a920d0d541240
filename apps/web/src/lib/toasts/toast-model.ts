// Toasts (spec sections 3, 4 and 9): kept in a map by key; each lasts the base duration times its
// place in the stack, so a toast stacked on others stays long enough to be read after them.

export type ToastStatus = 'default' | 'error' | 'info' | 'success' | 'warning';

export interface ToastInput {
  title: string;
  message?: string;
  status?: ToastStatus;
  /** Defaults to the current timestamp; adding a toast with a key already shown replaces it. */
  key?: string;
}

export interface Toast {
  key: string;
  title: string;
  message: string | undefined;
  status: ToastStatus;
  /** How long it stays, in ms, fixed when it is added. */
  duration: number;
  /** When it was added: a toast replaced under the same key is a new one (its timer starts again). */
  addedAt: number;
}

/** Spec section 9: the default toast duration. */
export const TOAST_DURATION_MS = 3000;
/** Spec section 9: a toast swiped up past this many pixels is dismissed. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** Spec section 9: the key that moves focus to the toasts. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- a key's name
export const TOAST_HOTKEY = 'F8';

/** Each toast already shown adds one base duration to a new one. */
export function stackedDuration(alreadyShown: number, base = TOAST_DURATION_MS): number {
  return base * (alreadyShown + 1);
}

export function addToast(
  toasts: ReadonlyMap<string, Toast>,
  input: ToastInput,
  now = Date.now(),
  base = TOAST_DURATION_MS,
): Map<string, Toast> {
  const key = input.key ?? String(now);
  const next = new Map(toasts);
  next.delete(key);
  next.set(key, {
    key,
    title: input.title,
    message: input.message,
    status: input.status ?? 'default',
    duration: stackedDuration(next.size, base),
    addedAt: now,
  });
  return next;
}

export function removeToast(toasts: ReadonlyMap<string, Toast>, key: string): Map<string, Toast> {
  if (!toasts.has(key)) return toasts as Map<string, Toast>;
  const next = new Map(toasts);
  next.delete(key);
  return next;
}
