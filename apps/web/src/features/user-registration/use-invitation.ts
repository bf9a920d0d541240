import { useCallback, useEffect, useState } from 'react';
import { lookupInvitation, type InvitationLookupOutcome } from './registration-api';

export type InvitationState = { kind: 'loading' } | InvitationLookupOutcome;

/** The invitation behind the page's token, with a way to try again after a failure. */
export function useInvitation(token: string): { state: InvitationState; retry: () => void } {
  const [state, setState] = useState<InvitationState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    void lookupInvitation(token, controller.signal).then((outcome) => {
      if (!controller.signal.aborted) setState(outcome);
    });
    return () => controller.abort();
  }, [token, attempt]);
  const retry = useCallback(() => {
    setState({ kind: 'loading' });
    setAttempt((count) => count + 1);
  }, []);
  return { state, retry };
}
