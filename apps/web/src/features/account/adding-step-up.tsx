import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { StepUpDialog } from '../../components/step-up/step-up-dialog';

/**
 * Adding a way to sign in (an app, email codes, a passkey) needs a recent sign-in, as changing the
 * email does: when the API asks for one, the step-up dialog opens over the form, which keeps what was
 * typed, and once the borrower has confirmed it's them the same request is made again.
 */
export function useAddingStepUp() {
  const { t } = useLingui();
  const [asked, setAsked] = useState<{ message: string; retry: () => void } | null>(null);
  return {
    /** Opens the dialog with the API's message; `retry` makes the refused request again. */
    ask: (message: string, retry: () => void) => setAsked({ message, retry }),
    /** The dialog while it is asked for; the focus goes back to `returnFocusId` on closing. */
    dialog: (returnFocusId: string) =>
      asked && (
        <StepUpDialog
          message={asked.message}
          confirmLabel={t`Confirm and continue`}
          factorMessage={t`One more step before you add it.`}
          onConfirmed={() => {
            setAsked(null);
            asked.retry();
          }}
          onCancel={() => setAsked(null)}
          returnFocusId={returnFocusId}
        />
      ),
  };
}
