import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from './spinner';

interface BusyButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** The action is under way: a spinner shows and the button cannot be pressed again. */
  busy: boolean;
  /** What a screen reader is told meanwhile ("Signing in"). */
  busyText: string;
}

/**
 * A screen's main action button with the polite announcement of what it is doing: one spinner, one
 * disabled state and one live region for every form. A submit button unless `type` says otherwise.
 */
export function BusyButton({
  busy,
  busyText,
  children,
  className = 'button button--primary button--block',
  disabled,
  type = 'submit',
  ...button
}: BusyButtonProps) {
  return (
    <>
      <button type={type} className={className} disabled={busy || disabled} {...button}>
        {busy && <Spinner />}
        {children}
      </button>
      <p className="visually-hidden" role="status">
        {busy ? busyText : ''}
      </p>
    </>
  );
}
