import { mock } from 'node:test';

/**
 * Runs `act` with this process's clock (the in-process server's too) held a second back. Tokens and
 * cut-offs have whole seconds: what `act` issues is then from an earlier second than a cut-off
 * stamped right after, without waiting for the next second to begin.
 */
export async function aSecondAgo<T>(act: () => Promise<T>): Promise<T> {
  mock.timers.enable({ apis: ['Date'], now: Date.now() - 1000 });
  try {
    return await act();
  } finally {
    mock.timers.reset();
  }
}
