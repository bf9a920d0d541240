import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { addToast, removeToast, type Toast, type ToastInput } from './toast-model';
import { ToastsContext, type Toasts } from './toasts-context';

/** Holds the toasts of the whole app, above the router, so a toast outlives the screen that added it. */
export function ToastsProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ReadonlyMap<string, Toast>>(() => new Map());
  const add = useCallback((input: ToastInput) => {
    const key = input.key ?? String(Date.now());
    setToasts((current) => addToast(current, { ...input, key }));
    return key;
  }, []);
  const remove = useCallback((key: string) => setToasts((current) => removeToast(current, key)), []);
  const value = useMemo<Toasts>(
    () => ({ toasts, addToast: add, removeToast: remove }),
    [toasts, add, remove],
  );
  return <ToastsContext.Provider value={value}>{children}</ToastsContext.Provider>;
}
