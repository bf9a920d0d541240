import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CODE_LENGTH } from '../../components/factors/code-field';
import { useAddingStepUp } from './adding-step-up';
import { confirmAuthenticatorApp } from './second-factors-api';

/**
 * The form that adds a factor with its first code (an app's, or one mailed): the code, its error, the
 * pending state, and the heading that takes the focus when the form opens. A wrong code clears the
 * field and says so under it; too many wrong ones end the enrolment (`onStartAgain`); a sign-in too
 * old opens the step-up dialog (`stepUpDialog`) and sends the same code again; any other problem
 * goes to `onFailed`.
 */
export function useFirstCode({
  factorId,
  codeRequired,
  onAdded,
  onStartAgain,
  onFailed,
}: {
  factorId: string;
  /** What an incomplete code is told. */
  codeRequired: MessageDescriptor;
  onAdded(): void;
  onStartAgain(message: string): void;
  onFailed(message: string): void;
}) {
  const { i18n } = useLingui();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const stepUp = useAddingStepUp();
  useEffect(() => heading.current?.focus(), []);

  const confirm = async (entered: string) => {
    setPending(true);
    setError(undefined);
    // The activate route takes the first code of any factor waiting for one.
    const outcome = await confirmAuthenticatorApp(factorId, entered);
    setPending(false);
    switch (outcome.kind) {
      case 'added':
        return onAdded();
      case 'wrong-code':
        setCode('');
        return setError(outcome.message);
      case 'start-again':
        return onStartAgain(outcome.message);
      case 'step-up':
        return stepUp.ask(outcome.message, () => void confirm(entered));
      case 'failed':
        return onFailed(outcome.message);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) return setError(i18n._(codeRequired));
    await confirm(code);
  };

  return {
    code,
    setCode,
    error,
    setError,
    pending,
    setPending,
    heading,
    submit,
    stepUpDialog: stepUp.dialog,
  };
}
