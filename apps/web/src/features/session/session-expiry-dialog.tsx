import { Trans, useLingui } from '@lingui/react/macro';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useState } from 'react';
import { Spinner } from '../../components/spinner';
import { StatusIcon } from '../../components/status-icon';
import { useAuth } from '../../lib/auth/use-auth';
import { formatRemaining, remainingAnnouncement } from './remaining-time';
import { useSecondsUntil } from './use-seconds-until';
import { DialogOverlay } from '../../components/dialog/dialog-overlay';
import '../../components/dialog/dialog.css';
import './session-expiry.css';

/**
 * The warning before an idle borrower's session ends. Only a choice closes it: "Stay signed in"
 * (also Escape) refreshes the session, "Sign out" ends it; input elsewhere on the page does not.
 */
export function SessionExpiryDialog({ expiresAt }: { expiresAt: number }) {
  const { i18n } = useLingui();
  const { staySignedIn, signOut } = useAuth();
  const seconds = useSecondsUntil(expiresAt);
  const [secondsAtOpen] = useState(seconds);
  const [pending, setPending] = useState<'stay' | 'sign-out' | null>(null);
  const [failed, setFailed] = useState(false);
  const remaining = formatRemaining(seconds, i18n);

  // On success the warning is over and this dialog goes away with it.
  const stay = async () => {
    if (pending) return;
    setPending('stay');
    setFailed(false);
    if (!(await staySignedIn())) {
      setPending(null);
      setFailed(true);
    }
  };
  const leave = () => {
    if (pending) return;
    setPending('sign-out');
    void signOut();
  };

  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && void stay()}>
      <AlertDialog.Portal>
        <DialogOverlay />
        <AlertDialog.Content className="dialog session-expiry" data-testid="session-expiry-warning">
          <span className="session-expiry__badge">
            <StatusIcon tone="warning" />
          </span>
          <AlertDialog.Title className="dialog__title session-expiry__title">
            <Trans>Your session is about to end</Trans>
          </AlertDialog.Title>
          <AlertDialog.Description className="session-expiry__description">
            <Trans>
              For your security, you will be signed out in{' '}
              <strong className="session-expiry__countdown" data-testid="session-expiry-countdown">
                {remaining}
              </strong>
              . Do you want to stay signed in?
            </Trans>
          </AlertDialog.Description>
          <p className="visually-hidden" role="status">
            {remainingAnnouncement(seconds, secondsAtOpen, i18n)}
          </p>
          {failed && (
            <p className="session-expiry__error" role="alert">
              <Trans>We couldn’t reach the server. Please try again.</Trans>
            </p>
          )}
          <div className="session-expiry__actions">
            <AlertDialog.Cancel
              className="button button--primary"
              aria-busy={pending === 'stay' || undefined}
            >
              {pending === 'stay' && <Spinner />}
              <Trans>Stay signed in</Trans>
            </AlertDialog.Cancel>
            <button
              type="button"
              className="button button--secondary"
              onClick={leave}
              aria-busy={pending === 'sign-out' || undefined}
            >
              {pending === 'sign-out' && <Spinner />}
              <Trans>Sign out</Trans>
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
