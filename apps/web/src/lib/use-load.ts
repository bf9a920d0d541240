import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';

export interface Loading {
  kind: 'loading';
}
const LOADING: Loading = { kind: 'loading' };

/** For answers that are not `{ kind }` objects themselves (a string, a profile or null). */
export const isLoading = <T>(state: Loading | T): state is Loading => state === LOADING;

/**
 * What `load` answers, asked for when the component mounts and again when `keys` change. An answer
 * that arrives after the component has moved on (unmounted, other keys) is dropped: its request is
 * aborted. `retry` shows loading and asks again; `reload` asks again and keeps what is shown until
 * the answer arrives; `setState` puts in an answer the component got otherwise (after an action).
 * `atHand`, read on the first render: an answer already there (asked for before the component
 * mounted), shown from that render on instead of asking.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  keys: DependencyList,
  atHand?: () => T | undefined,
) {
  const [state, setState] = useState<Loading | T>(() => atHand?.() ?? LOADING);
  const [attempt, setAttempt] = useState(0);
  // The answer at hand stands for the first load.
  const answered = useRef(state !== LOADING);
  useEffect(() => {
    if (answered.current) {
      answered.current = false;
      return;
    }
    const controller = new AbortController();
    void load(controller.signal).then((answer) => {
      if (!controller.signal.aborted) setState(answer);
    });
    return () => controller.abort();
    // `keys` name everything `load` reads; `load` itself is a new function on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...keys, attempt]);
  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  const retry = useCallback(() => {
    setState(LOADING);
    reload();
  }, [reload]);
  return { state, setState, retry, reload };
}
