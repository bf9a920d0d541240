import { useEffect } from 'react';
import type { ToastInput, ToastStatus } from './toasts/toast-model';
import { useToasts } from './toasts/toasts-context';

// A toast announced before a full-page navigation (e.g. registration's "Your account is ready", said
// before the sign-in redirect through the identity provider) and shown by the page the borrower lands
// on. It waits in this tab's sessionStorage, which survives the redirect, and is shown once.

const PENDING_TOAST_STORAGE_KEY = 'customer-core.pending-toast';
const STATUSES: readonly ToastStatus[] = ['default', 'error', 'info', 'success', 'warning'];

export function savePendingToast(toast: ToastInput): void {
  try {
    sessionStorage.setItem(PENDING_TOAST_STORAGE_KEY, JSON.stringify(toast));
  } catch {
    // Storage can be unavailable (private mode, quota): the notice is lost, nothing else.
  }
}

export function clearPendingToast(): void {
  try {
    sessionStorage.removeItem(PENDING_TOAST_STORAGE_KEY);
  } catch {
    // Nothing stored then.
  }
}

function parsePendingToast(raw: string | null): ToastInput | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { title, message, status } = value as Record<string, unknown>;
    // A toast's label is never empty (spec section 5).
    if (typeof title !== 'string' || !title.trim()) return null;
    return {
      title,
      ...(typeof message === 'string' && { message }),
      ...(STATUSES.includes(status as ToastStatus) && { status: status as ToastStatus }),
    };
  } catch {
    return null;
  }
}

/** The pending toast, read once (taking it removes it). */
export function takePendingToast(): ToastInput | null {
  try {
    const raw = sessionStorage.getItem(PENDING_TOAST_STORAGE_KEY);
    sessionStorage.removeItem(PENDING_TOAST_STORAGE_KEY);
    return parsePendingToast(raw);
  } catch {
    return null;
  }
}

/** Shows the pending toast, if any, when the landing screen mounts. */
export function usePendingToast(): void {
  const { addToast } = useToasts();
  useEffect(() => {
    const toast = takePendingToast();
    if (toast) addToast(toast);
  }, [addToast]);
}
