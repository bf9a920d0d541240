import { operatorEndpoints, type SigningKeyRotation } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { ActionDialog } from '../components/action-dialog';
import type { Notice } from '../components/action-notice';
import { ConsoleSection } from '../components/console-section';
import { useConsoleApi } from '../session/console-api';

/** Rotates the key that signs borrowers' access tokens: routinely, or at once after a leak. */
export function SigningKeySection({ noticeId, onDone }: { noticeId: string; onDone(notice: Notice): void }) {
  const { t } = useLingui();
  const api = useConsoleApi();
  const [open, setOpen] = useState(false);
  const [retireNow, setRetireNow] = useState(false);
  const [rotation, setRotation] = useState<SigningKeyRotation | null>(null);

  return (
    <ConsoleSection
      id="signing-key"
      title={t`Signing key`}
      intro={t`The key that signs borrowers’ access tokens. Rotate it on schedule, or at once if it may have leaked.`}
      actions={
        <button
          type="button"
          className="button button--secondary console-button--small"
          onClick={() => {
            setRetireNow(false);
            setOpen(true);
          }}
          data-testid="rotate-signing-key"
        >
          <Trans>Rotate the signing key</Trans>
        </button>
      }
    >
      {rotation && (
        <dl className="console-facts" data-testid="signing-key-rotation">
          <div>
            <dt>{t`Signing now`}</dt>
            <dd className="console-code">{rotation.activeKid}</dd>
          </div>
          <div>
            <dt>{t`Still verifying`}</dt>
            <dd className="console-code">{rotation.verifyingKids.join(', ')}</dd>
          </div>
          <div>
            <dt>{t`Retired`}</dt>
            <dd className="console-code">{rotation.retiredKids.join(', ') || t`No key retired`}</dd>
          </div>
        </dl>
      )}
      {open && (
        <ActionDialog
          title={t`Rotate the signing key`}
          description={
            <p>
              <Trans>
                A new key signs access tokens from now on. Earlier keys still verify the tokens they signed
                until those expire, so nobody is signed out.
              </Trans>
            </p>
          }
          confirmLabel={t`Rotate the key`}
          busyText={t`Rotating the key`}
          danger={retireNow}
          onConfirm={async (reason) => {
            const outcome = await api.call(operatorEndpoints.signingKeyRotations, {
              body: { retireEarlierKeysNow: retireNow },
              reason,
            });
            if (!outcome.ok) return outcome.failure;
            setRotation(outcome.data);
            const kid = outcome.data.activeKid;
            onDone({
              type: 'success',
              text: retireNow
                ? t`The signing key is rotated (${kid}), and earlier keys are retired: every borrower is signed out.`
                : t`The signing key is rotated (${kid}).`,
            });
            return null;
          }}
          onClose={() => setOpen(false)}
          focusOnDone={noticeId}
          testId="rotate-signing-key-dialog"
        >
          <label className="console-check console-check--warning">
            <input
              type="checkbox"
              checked={retireNow}
              onChange={(event) => setRetireNow(event.target.checked)}
              data-testid="retire-earlier-keys"
            />
            <span>
              <Trans>
                Retire every earlier key now (after a leak). <strong>Every borrower is signed out.</strong>
              </Trans>
            </span>
          </label>
        </ActionDialog>
      )}
    </ConsoleSection>
  );
}
