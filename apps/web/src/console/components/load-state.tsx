import { Trans } from '@lingui/react/macro';
import type { DependencyList, ReactNode } from 'react';
import { Loading } from '../../components/loading';
import { isLoading, useLoad, type Loading as LoadingState } from '../../lib/use-load';
import type { ConsoleOutcome } from '../session/console-api';

export type Loaded<T> = { kind: 'loaded'; data: T } | { kind: 'failed'; message: string; quiet: boolean };
export type LoadState<T> = LoadingState | Loaded<T>;

/**
 * A console call made as the component mounts (and again when `keys` change): its data, or why it
 * failed. `reload` asks again keeping what is shown (after an action); `retry` shows loading first.
 */
export function useConsoleLoad<T>(
  load: (signal: AbortSignal) => Promise<ConsoleOutcome<T>>,
  keys: DependencyList,
) {
  return useLoad<Loaded<T>>(async (signal) => {
    const outcome = await load(signal);
    return outcome.ok
      ? { kind: 'loaded', data: outcome.data }
      : { kind: 'failed', message: outcome.failure.message, quiet: outcome.failure.quiet };
  }, keys);
}

interface LoadedViewProps<T> {
  state: LoadState<T>;
  retry: () => void;
  children: (data: T) => ReactNode;
}

/** The data once loaded; meanwhile "Loading...", and on a failure what went wrong and "Try again". */
export function LoadedView<T>({ state, retry, children }: LoadedViewProps<T>) {
  if (isLoading(state)) return <Loading />;
  if (state.kind === 'failed')
    return state.quiet ? null : (
      <div className="console-problem" role="alert">
        <p>{state.message}</p>
        <button type="button" className="button button--secondary console-button--small" onClick={retry}>
          <Trans>Try again</Trans>
        </button>
      </div>
    );
  return children(state.data);
}
