import { Trans, useLingui } from '@lingui/react/macro';
import { BusyButton } from '../../components/busy-button';

/**
 * "Sign in with a passkey", under the form's main button. The first paint shows it too (waiting, like
 * LOGIN) where passkeys work: if it appeared only with the interactive form, everything under it would
 * move down, and a click meant for "Email Only Sign In" could land on it.
 */
export function PasskeyButton({
  busy = false,
  disabled,
  onClick,
}: {
  busy?: boolean;
  disabled?: boolean;
  onClick?: () => void;
}) {
  const { t } = useLingui();
  return (
    <BusyButton
      type="button"
      className="button button--secondary button--block"
      busy={busy}
      busyText={t`Waiting for your passkey`}
      disabled={disabled}
      onClick={onClick}
      data-testid="passkey-sign-in"
    >
      <Trans>Sign in with a passkey</Trans>
    </BusyButton>
  );
}
