import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CODE_LENGTH } from '../../components/factors/code-field';
import { confirmAuthenticatorApp } from './second-factors-api';

/**
 * The form that adds a factor with its first code (an app's, or one mailed): the code, its error, the
 * pending state, and the heading that takes the focus when the form opens. A wrong code clears the
 * field and says so under it; any other problem goes to `onFailed`.
 */
export function useFirstCode({
  factorId,
  codeRequired,
  onAdded,
  onFailed,
}: {
  factorId: string;
  /** What an incomplete code is told. */
  codeRequired: string;
  onAdded(): void;
  onFailed(message: string): void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) return setError(codeRequired);
    setPending(true);
    setError(undefined);
    // The activate route takes the first code of any factor waiting for one.
    const outcome = await confirmAuthenticatorApp(factorId, code);
    setPending(false);
    if (outcome.kind === 'added') return onAdded();
    if (outcome.kind === 'wrong-code') {
      setCode('');
      return setError(outcome.message);
    }
    onFailed(outcome.message);
  };

  return { code, setCode, error, setError, pending, setPending, heading, submit };
}
