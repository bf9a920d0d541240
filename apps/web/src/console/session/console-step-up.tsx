import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useConsoleSession } from './console-session-context';
import { ConsoleStepUpDialog } from './console-step-up-dialog';

/** Asks the staff member to confirm it's them; true once the console holds a token of a new sign-in. */
type ConfirmIdentity = () => Promise<boolean>;

const StepUpContext = createContext<ConfirmIdentity | null>(null);

/**
 * The "Confirm it's you" dialog of the console, for any call the API refuses with step_up_required:
 * one at a time; calls that ask while it is open wait for the same answer.
 */
export function ConsoleStepUpProvider({ children }: { children: ReactNode }) {
  const { session } = useConsoleSession();
  const [open, setOpen] = useState(false);
  const waiting = useRef<((confirmed: boolean) => void)[]>([]);

  const confirmIdentity = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        waiting.current.push(resolve);
        setOpen(true);
      }),
    [],
  );

  const answer = useCallback((confirmed: boolean) => {
    const resolvers = waiting.current;
    waiting.current = [];
    setOpen(false);
    for (const resolve of resolvers) resolve(confirmed);
  }, []);

  const value = useMemo(() => confirmIdentity, [confirmIdentity]);
  return (
    <StepUpContext value={value}>
      {children}
      {open && session && (
        <ConsoleStepUpDialog onConfirmed={() => answer(true)} onCancel={() => answer(false)} />
      )}
    </StepUpContext>
  );
}

export function useConfirmIdentity(): ConfirmIdentity {
  const confirm = useContext(StepUpContext);
  if (!confirm) throw new Error('useConfirmIdentity needs a <ConsoleStepUpProvider> above it');
  return confirm;
}
