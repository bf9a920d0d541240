import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { BusyButton } from './busy-button';

/**
 * A form's own buttons, as the account page's forms have them (see account-row.tsx): the main action
 * first, then Cancel, which waits while the action runs.
 */
export function FormActions({
  id,
  testId,
  busy,
  busyText,
  onCancel,
  children,
}: {
  id?: string;
  /** The main action's test id. */
  testId?: string;
  busy: boolean;
  busyText: string;
  onCancel: () => void;
  /** The main action's words. */
  children: ReactNode;
}) {
  return (
    <div className="form-actions">
      <BusyButton
        id={id}
        busy={busy}
        busyText={busyText}
        className="button button--primary"
        data-testid={testId}
      >
        {children}
      </BusyButton>
      <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>
        <Trans>Cancel</Trans>
      </button>
    </div>
  );
}
