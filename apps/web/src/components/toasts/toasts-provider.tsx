import { Suspense, lazy, useCallback, useMemo, useState, type ReactNode } from 'react';
import { addToast, removeToast, type Toast, type ToastInput } from '../../lib/toasts/toast-model';
import { ToastsContext, type Toasts } from '../../lib/toasts/toasts-context';

// The renderer (Radix Toast) is its own chunk, fetched with the first toast, so that the sign-in
// screen's first paint does not carry it. Once loaded it stays mounted (its F8 hotkey with it).
const ToastViewport = lazy(() => import('./toast-viewport').then((m) => ({ default: m.ToastViewport })));

/** Holds the toasts of the whole app, above the router, so a toast outlives the screen that added it. */
export function ToastsProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ReadonlyMap<string, Toast>>(() => new Map());
  const [rendererWanted, setRendererWanted] = useState(false);
  const add = useCallback((input: ToastInput) => {
    const key = input.key ?? String(Date.now());
    setToasts((current) => addToast(current, { ...input, key }));
    setRendererWanted(true);
    return key;
  }, []);
  const remove = useCallback((key: string) => setToasts((current) => removeToast(current, key)), []);
  const value = useMemo<Toasts>(
    () => ({ toasts, addToast: add, removeToast: remove }),
    [toasts, add, remove],
  );
  return (
    <ToastsContext.Provider value={value}>
      {children}
      {rendererWanted && (
        <Suspense fallback={null}>
          <ToastViewport toasts={toasts} onRemove={remove} />
        </Suspense>
      )}
    </ToastsContext.Provider>
  );
}
