import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useState, type ReactNode } from 'react';
import { DialogOverlay } from '../../components/dialog/dialog-overlay';
import { Spinner } from '../../components/spinner';
import '../../components/dialog/dialog.css';

interface ConfirmDialogProps {
  title: string;
  description: ReactNode;
  /** The action's verb, as on the button that opened the dialog: "Cancel payment". */
  confirmLabel: string;
  /** What keeps things as they are: "Keep payment" (also Escape). */
  keepLabel: string;
  /** Does it: the refusal's or failure's words when it did not. */
  onConfirm: () => Promise<string | null>;
  /** Closed: `done` once the action is done (the dialog is then taken away). */
  onClose: (done: boolean) => void;
  /** Where the focus goes once it closes: the element's id (by default, back where it was). */
  focusAfter?: () => string | undefined;
  testId: string;
}

/**
 * A question before an action that can't be undone here (cancelling a payment, turning autopay off):
 * Radix's AlertDialog, which keeps the focus in it and starts it on the button that keeps things.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  keepLabel,
  onConfirm,
  onClose,
  focusAfter,
  testId,
}: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const confirm = async () => {
    if (pending) return;
    setPending(true);
    setFailure(null);
    const refused = await onConfirm();
    setPending(false);
    if (refused) return setFailure(refused);
    onClose(true);
  };

  return (
    <AlertDialog.Root
      open
      onOpenChange={(open) => {
        if (!open && !pending) onClose(false);
      }}
    >
      <AlertDialog.Portal>
        <DialogOverlay />
        <AlertDialog.Content
          className="dialog confirm-dialog"
          data-testid={testId}
          onCloseAutoFocus={(event) => {
            const id = focusAfter?.();
            const target = id && document.getElementById(id);
            if (target) {
              event.preventDefault();
              target.focus();
            }
          }}
        >
          <AlertDialog.Title className="dialog__title">{title}</AlertDialog.Title>
          <AlertDialog.Description className="confirm-dialog__description">
            {description}
          </AlertDialog.Description>
          {failure && (
            <p className="confirm-dialog__error" role="alert">
              {failure}
            </p>
          )}
          <div className="confirm-dialog__actions">
            <button
              type="button"
              className="button button--primary"
              onClick={() => void confirm()}
              disabled={pending}
              aria-busy={pending || undefined}
            >
              {pending && <Spinner />}
              {confirmLabel}
            </button>
            <AlertDialog.Cancel className="button button--secondary" disabled={pending}>
              {keepLabel}
            </AlertDialog.Cancel>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
