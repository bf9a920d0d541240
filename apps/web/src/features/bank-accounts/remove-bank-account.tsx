import type { BankAccount } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useRef, useState } from 'react';
import { BusyButton } from '../../components/busy-button';
import { DialogOverlay } from '../../components/dialog/dialog-overlay';
import { StepUpDialog } from '../../components/step-up/step-up-dialog';
import { removeBankAccount, type RemoveOutcome } from './bank-accounts-api';
import { bankName } from './bank-account-words';
import '../../components/dialog/dialog.css';

interface RemoveBankAccountProps {
  account: BankAccount;
  /** The id of the account's name, which describes the Remove button. */
  nameId: string;
  /** What the removal came to (removed, refused, gone): the screen says it and places the focus. */
  onOutcome(outcome: Exclude<RemoveOutcome, { kind: 'step-up' }>): void;
}

/**
 * An account's Remove button, and the dialog that asks before removing it. A sign-in too old for it
 * opens the step-up dialog instead, and once the borrower has confirmed it's them the account is
 * removed. Whatever follows, the screen says it (a notice that takes the focus where the row is gone).
 */
export function RemoveBankAccount({ account, nameId, onOutcome }: RemoveBankAccountProps) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [stepUp, setStepUp] = useState(false);
  // The focus goes back to the Remove button on Cancel; the screen places it after anything else.
  const focusTrigger = useRef(true);
  const buttonId = `remove-${account.id}`;
  const name = bankName(account, i18n);
  const last4 = account.last4;

  const remove = async () => {
    setPending(true);
    const outcome = await removeBankAccount(account.id);
    setPending(false);
    focusTrigger.current = false;
    setOpen(false);
    if (outcome.kind === 'step-up') setStepUp(true);
    else onOutcome(outcome);
  };

  return (
    <>
      <AlertDialog.Root
        open={open}
        onOpenChange={(next) => {
          if (pending) return;
          if (next) focusTrigger.current = true;
          setOpen(next);
        }}
      >
        <AlertDialog.Trigger
          id={buttonId}
          className="button button--secondary bank-account__remove"
          aria-describedby={nameId}
          data-testid="bank-account-remove"
        >
          <Trans>Remove</Trans>
        </AlertDialog.Trigger>
        <AlertDialog.Portal>
          <DialogOverlay />
          <AlertDialog.Content
            className="dialog"
            data-testid="bank-account-remove-dialog"
            onCloseAutoFocus={(event) => {
              if (!focusTrigger.current) event.preventDefault();
            }}
          >
            <AlertDialog.Title className="dialog__title">
              <Trans>Remove this bank account?</Trans>
            </AlertDialog.Title>
            <AlertDialog.Description className="bank-accounts__dialog-text">
              <Trans>
                You won’t be able to pay from {name} ending in {last4} any more. To use it again, you’d add it
                and verify it again.
              </Trans>
            </AlertDialog.Description>
            <div className="bank-accounts__dialog-actions">
              <BusyButton
                type="button"
                busy={pending}
                busyText={t`Removing the bank account…`}
                className="button button--primary"
                onClick={() => void remove()}
                data-testid="bank-account-remove-confirm"
              >
                <Trans>Remove bank account</Trans>
              </BusyButton>
              <AlertDialog.Cancel className="button button--secondary" disabled={pending}>
                <Trans>Cancel</Trans>
              </AlertDialog.Cancel>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
      {stepUp && (
        <StepUpDialog
          message={t`To remove a bank account, confirm it’s you.`}
          confirmLabel={t`Confirm and remove`}
          factorMessage={t`One more step before you remove it.`}
          onConfirmed={() => {
            setStepUp(false);
            void remove();
          }}
          onCancel={() => setStepUp(false)}
          returnFocusId={buttonId}
        />
      )}
    </>
  );
}
