import { Trans, useLingui } from '@lingui/react/macro';
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { BusyButton } from '../../components/busy-button';
import { DialogOverlay } from '../../components/dialog/dialog-overlay';
import { FormField, fieldErrorId } from '../../components/form-field';
import '../../components/dialog/dialog.css';
import type { ConsoleFailure } from '../session/console-failure';
import { ReasonField, reasonProblem } from './reason-field';

/** Before an action that can't be undone: what the staff member types to say they mean it. */
export interface TypedConfirmation {
  /** The field's label, naming what to type: "Type the borrower’s email address to confirm". */
  label: string;
  expected: string;
}

interface ActionDialogProps {
  title: string;
  /** What will happen, naming who it happens to. */
  description: ReactNode;
  /** The button that does it, with its verb: "Unlock sign-in". */
  confirmLabel: string;
  busyText: string;
  /** Red, for an action that removes or ends something. */
  danger?: boolean;
  /** Whether a reason must be given (the API refuses some actions without one); else it may be. */
  reasonRequired?: boolean;
  typedConfirmation?: TypedConfirmation;
  /** More of the action's own controls, above the reason (a choice, a checkbox). */
  children?: ReactNode;
  /** Does it: null when done (the dialog closes), else the failure said in the dialog. */
  onConfirm(reason: string): Promise<ConsoleFailure | null>;
  onClose(): void;
  /** Where the focus goes once done (the notice that says so): the button that opened it may be gone. */
  focusOnDone: string;
  testId: string;
}

/**
 * An action confirmed in a dialog: what will happen, a reason for the audit trail (required or not),
 * and for some a typed confirmation. The dialog stays open on a failure, which it says; Escape and
 * Cancel leave nothing done.
 */
export function ActionDialog({
  title,
  description,
  confirmLabel,
  busyText,
  danger = false,
  reasonRequired = false,
  typedConfirmation,
  children,
  onConfirm,
  onClose,
  focusOnDone,
  testId,
}: ActionDialogProps) {
  const { t, i18n } = useLingui();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const done = useRef(false);
  const reasonId = `${testId}-reason`;
  const typedId = `${testId}-typed`;

  const matches =
    !typedConfirmation || typed.trim().toLowerCase() === typedConfirmation.expected.trim().toLowerCase();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = reasonProblem(reason, reasonRequired, i18n);
    setReasonError(problem);
    setTypedError(matches ? null : t`That isn’t what it says to type. Check it and try again.`);
    if (!matches) return document.getElementById(typedId)?.focus();
    if (problem) return document.getElementById(reasonId)?.focus();
    setFailure(null);
    setPending(true);
    const failed = await onConfirm(reason.trim());
    if (!failed) {
      done.current = true;
      return onClose();
    }
    setPending(false);
    if (!failed.quiet) setFailure(failed.message);
  };

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !pending && onClose()}>
      <Dialog.Portal>
        <DialogOverlay />
        <Dialog.Content
          className="dialog console-dialog"
          data-testid={testId}
          onCloseAutoFocus={(event) => {
            if (!done.current) return;
            event.preventDefault();
            document.getElementById(focusOnDone)?.focus();
          }}
        >
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="console-dialog__description">{description}</div>
          </Dialog.Description>
          <form className="console-form" onSubmit={(event) => void submit(event)} noValidate>
            {children}
            {typedConfirmation && (
              <FormField id={typedId} label={typedConfirmation.label} error={typedError ?? undefined}>
                <input
                  id={typedId}
                  type="text"
                  className="text-input"
                  value={typed}
                  autoComplete="off"
                  spellCheck={false}
                  readOnly={pending}
                  onChange={(event) => setTyped(event.target.value)}
                  aria-invalid={typedError ? true : undefined}
                  aria-describedby={typedError ? fieldErrorId(typedId) : undefined}
                  data-testid="typed-confirmation"
                />
              </FormField>
            )}
            <ReasonField
              id={reasonId}
              required={reasonRequired}
              input={{ value: reason, onChange: (event) => setReason(event.target.value), readOnly: pending }}
              error={reasonError}
            />
            <p className="console-dialog__failure" role="alert">
              {failure ?? ''}
            </p>
            <div className="console-actions">
              <BusyButton
                busy={pending}
                busyText={busyText}
                className={`button ${danger ? 'console-button--danger' : 'button--primary'}`}
                data-testid={`${testId}-confirm`}
              >
                {confirmLabel}
              </BusyButton>
              <Dialog.Close asChild>
                <button type="button" className="button button--secondary" disabled={pending}>
                  <Trans>Cancel</Trans>
                </button>
              </Dialog.Close>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
