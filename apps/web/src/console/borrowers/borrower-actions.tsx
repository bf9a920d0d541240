import {
  consoleEndpoints,
  dataRightsEndpoints,
  operatorEndpoints,
  type BorrowerFile,
  type Endpoint,
  type ErasureReportSchema,
} from '@customer-core/contracts';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { formatInstant } from '../../loans/loan-format';
import { ActionDialog } from '../components/action-dialog';
import type { Notice } from '../components/action-notice';
import { fileStamp, saveFile } from '../lib/download';
import { useConsoleApi, type ConsoleOutcome } from '../session/console-api';
import type { ConsoleFailure } from '../session/console-failure';
import { useMay } from '../shell/use-may';
import { borrowerName } from './borrower-words';

export type ErasureReport = z.infer<typeof ErasureReportSchema>;

type Action = 'resend' | 'unlock' | 'reset-factors' | 'export' | 'erase' | 'hold-on' | 'hold-off';

interface BorrowerActionsProps {
  file: BorrowerFile;
  /** The id of the notice the focus goes to once an action is done. */
  noticeId: string;
  /** An action done: what to say, and the borrower's file (and its sections) loaded again. */
  onDone(notice: Notice): void;
  onErased(report: ErasureReport): void;
}

const LEGAL_HOLD_REFUSAL = msg`A legal hold keeps this borrower’s data, so it can’t be erased. Lift the hold first, if the law allows it.`;

/**
 * What staff can do for a borrower, each behind a dialog that names them and says what will happen:
 * support's (invitation, lockout, second factors) and, for admins, the data rights (export, erasure,
 * legal hold). Only what the staff member's role may do, and what fits the borrower's state, is offered.
 */
export function BorrowerActions({ file, noticeId, onDone, onErased }: BorrowerActionsProps) {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const may = useMay();
  const [open, setOpen] = useState<Action | null>(null);
  const { borrower, factors } = file;
  const email = borrower.email;
  const who = borrowerName(borrower) ?? email;
  const close = () => setOpen(null);

  /** An action's outcome: done (said, and everything loaded again) or the failure the dialog says. */
  const settle = <T,>(outcome: ConsoleOutcome<T>, said: (data: T) => string): ConsoleFailure | null => {
    if (!outcome.ok) return outcome.failure;
    onDone({ type: 'success', text: said(outcome.data) });
    return null;
  };

  const button = (action: Action, label: string, endpoint: Pick<Endpoint, 'staff'>, danger = false) =>
    may(endpoint) && (
      <button
        type="button"
        className={`button ${danger ? 'console-button--danger-outline' : 'button--secondary'} console-button--small`}
        onClick={() => setOpen(action)}
        data-testid={`borrower-action-${action}`}
      >
        {label}
      </button>
    );

  const dialog = (
    action: Action,
    props: Omit<Parameters<typeof ActionDialog>[0], 'onClose' | 'focusOnDone' | 'testId'>,
  ): ReactNode =>
    open === action && (
      <ActionDialog {...props} onClose={close} focusOnDone={noticeId} testId={`borrower-dialog-${action}`} />
    );

  const support = [
    borrower.state !== 'registered' &&
      button('resend', t`Resend invitation`, consoleEndpoints.resendInvitation),
    borrower.locked === true && button('unlock', t`Unlock sign-in`, operatorEndpoints.unlockBorrower),
    factors.length > 0 &&
      button('reset-factors', t`Reset second factors`, operatorEndpoints.resetSecondFactors, true),
  ].filter(Boolean);
  const admin = [
    button('export', t`Export data`, dataRightsEndpoints.borrowerExport),
    borrower.legalHold
      ? button('hold-off', t`Lift legal hold`, dataRightsEndpoints.legalHold)
      : button('hold-on', t`Put on legal hold`, dataRightsEndpoints.legalHold),
    button('erase', t`Erase data`, dataRightsEndpoints.eraseBorrower, true),
  ].filter(Boolean);

  return (
    <>
      {(support.length > 0 || admin.length > 0) && (
        <div className="console-toolbar" role="group" aria-label={t`Actions for this borrower`}>
          {support}
          {admin.length > 0 && support.length > 0 && (
            <span className="console-toolbar__gap" aria-hidden="true" />
          )}
          {admin}
        </div>
      )}

      {dialog('resend', {
        title: t`Resend the invitation`,
        description: (
          <p>
            <Trans>
              We’ll email <strong>{who}</strong> ({email}) a new registration link. The link sent before stops
              working.
            </Trans>
          </p>
        ),
        confirmLabel: t`Resend invitation`,
        busyText: t`Resending the invitation`,
        onConfirm: async (reason) =>
          settle(
            await api.call(
              consoleEndpoints.resendInvitation,
              { body: { email }, reason },
              { fallback: msg`There’s no invitation out for this address.` },
            ),
            (sent) => {
              const until = formatInstant(sent.expiresAt);
              return t`Invitation sent again to ${email}. The new link works until ${until}.`;
            },
          ),
      })}

      {dialog('unlock', {
        title: t`Unlock sign-in`,
        description: (
          <p>
            <Trans>
              <strong>{who}</strong> will be able to sign in with their password again at once. Do this only
              once you know the caller is the borrower.
            </Trans>
          </p>
        ),
        confirmLabel: t`Unlock sign-in`,
        busyText: t`Unlocking sign-in`,
        onConfirm: async (reason) =>
          settle(
            await api.call(operatorEndpoints.unlockBorrower, { body: { email }, reason }),
            () => t`Sign-in is unlocked for ${email}.`,
          ),
      })}

      {dialog('reset-factors', {
        title: t`Reset second factors`,
        description: (
          <>
            <p>
              <Trans>
                Every second factor of <strong>{who}</strong> will be removed, and every session of theirs
                ended. We’ll email {email} to say so; they’ll set up a second factor again at their next
                sign-in.
              </Trans>
            </p>
            <p>
              <Trans>Do this only once you know the caller is the borrower (a lost phone, say).</Trans>
            </p>
          </>
        ),
        confirmLabel: t`Reset second factors`,
        busyText: t`Resetting second factors`,
        danger: true,
        reasonRequired: true,
        onConfirm: async (reason) =>
          settle(
            await api.call(operatorEndpoints.resetSecondFactors, { body: { email }, reason }),
            ({ factorsRemoved, sessionsEnded }) =>
              i18n._(
                msg`${plural(factorsRemoved, {
                  one: '# second factor removed',
                  other: '# second factors removed',
                })} and ${plural(sessionsEnded, {
                  one: '# session ended',
                  other: '# sessions ended',
                })}. The borrower has been emailed.`,
              ),
          ),
      })}

      {dialog('export', {
        title: t`Export the borrower’s data`,
        description: (
          <p>
            <Trans>
              Download everything held about <strong>{who}</strong> as a ZIP file: borrower.json and their
              signed documents. It holds personal data: keep it safe, and delete it once done.
            </Trans>
          </p>
        ),
        confirmLabel: t`Download ZIP file`,
        busyText: t`Preparing the export`,
        onConfirm: async (reason) => {
          const outcome = await api.download(
            dataRightsEndpoints.borrowerExport,
            { query: { email }, reason },
            { fallback: msg`No borrower has this email address any more.` },
          );
          if (!outcome.ok) return outcome.failure;
          // Named for the borrower and the moment (the API names every export alike).
          saveFile(outcome.data.blob, `borrower-${borrower.id}-${fileStamp()}.zip`);
          onDone({ type: 'success', text: t`The export of ${email} is downloaded.` });
          return null;
        },
      })}

      {dialog('hold-on', {
        title: t`Put on legal hold`,
        description: (
          <p>
            <Trans>
              All of <strong>{who}</strong>’s data will be kept, and erasing it refused, until the hold is
              lifted. The reason is kept with the hold.
            </Trans>
          </p>
        ),
        confirmLabel: t`Put on legal hold`,
        busyText: t`Putting on legal hold`,
        reasonRequired: true,
        onConfirm: async (reason) =>
          settle(
            await api.call(dataRightsEndpoints.legalHold, { body: { email, hold: true, reason }, reason }),
            () => t`${email} is on legal hold.`,
          ),
      })}

      {dialog('hold-off', {
        title: t`Lift the legal hold`,
        description: (
          <p>
            <Trans>
              <strong>{who}</strong>’s data will no longer be kept by the hold: it may be erased again, and is
              kept only as long as the law requires.
            </Trans>
          </p>
        ),
        confirmLabel: t`Lift legal hold`,
        busyText: t`Lifting the legal hold`,
        onConfirm: async (reason) =>
          settle(
            await api.call(dataRightsEndpoints.legalHold, { body: { email, hold: false }, reason }),
            () => t`The legal hold on ${email} is lifted.`,
          ),
      })}

      {dialog('erase', {
        title: t`Erase the borrower’s data`,
        description: (
          <>
            <p>
              <Trans>
                What the law allows of <strong>{who}</strong>’s data will be erased: their account, sessions
                and personal details. What must be kept (signed loan documents, the audit trail) stays, and
                you’ll see why.
              </Trans>
            </p>
            <p>
              <strong>
                <Trans>This can’t be undone.</Trans>
              </strong>
            </p>
          </>
        ),
        confirmLabel: t`Erase data`,
        busyText: t`Erasing the data`,
        danger: true,
        typedConfirmation: { label: t`Type the borrower’s email address to confirm`, expected: email },
        onConfirm: async (reason) => {
          const outcome = await api.call(dataRightsEndpoints.eraseBorrower, { body: { email }, reason });
          if (!outcome.ok) {
            if (outcome.failure.code === 'legal_hold')
              return { ...outcome.failure, message: i18n._(LEGAL_HOLD_REFUSAL) };
            return outcome.failure;
          }
          onErased(outcome.data);
          onDone({ type: 'success', text: t`The data of ${email} is erased, as far as the law allows.` });
          return null;
        },
      })}
    </>
  );
}
