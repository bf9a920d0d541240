import { createContext, useContext } from 'react';
import type { Toast, ToastInput } from './toast-model';

export interface Toasts {
  toasts: ReadonlyMap<string, Toast>;
  /** Shows a toast; returns its key. */
  addToast(input: ToastInput): string;
  removeToast(key: string): void;
}

export const ToastsContext = createContext<Toasts | null>(null);

export function useToasts(): Toasts {
  const toasts = useContext(ToastsContext);
  if (!toasts) throw new Error('useToasts needs a <ToastsProvider> above it');
  return toasts;
}
