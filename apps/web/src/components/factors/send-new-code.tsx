import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

/** What the borrower is told once a new code is on its way: only the newest one works. */
const NEW_CODE_SENT = msg`We sent a new code. Use the newest one.`;

interface SendNewCodeProps {
  /** A new code was sent: said (politely) in the status line above the button. */
  sent: boolean;
  /** Sends another code; without it, only the status line shows. */
  onSend?: (() => void) | undefined;
  disabled: boolean;
  testId: string;
  /** The status line's look where it sits (the factor step's intro text by default). */
  statusClassName?: string;
}

/** "Send a new code" under an e-mailed code's field, and the line that says one was sent. */
export function SendNewCode({
  sent,
  onSend,
  disabled,
  testId,
  statusClassName = 'factor-step__intro',
}: SendNewCodeProps) {
  const { i18n } = useLingui();
  return (
    <>
      <p className={statusClassName} role="status" data-testid={testId}>
        {sent ? i18n._(NEW_CODE_SENT) : ''}
      </p>
      {onSend && (
        <button type="button" className="factor-step__link" onClick={onSend} disabled={disabled}>
          <Trans>Send a new code</Trans>
        </button>
      )}
    </>
  );
}
