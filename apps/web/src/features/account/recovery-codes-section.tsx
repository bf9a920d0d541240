import { ACCOUNT_ROWS } from '@customer-core/contracts';
import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { FormActions } from '../../components/form-actions';
import '../../components/factors/factors.css';
import { getLenderBranding } from '../../config/portal-config-meta';
import { dismissLandingNotice } from '../../lib/landing-notice';
import { useLoad } from '../../lib/use-load';
import { generateRecoveryCodes, getRecoveryCodeStatus } from './recovery-codes-api';
import { CurrentPasswordField, usePasswordConfirmation } from './current-password-field';
import { SectionLoading, SectionNotice, type SectionNoticeText } from './section-parts';
import { AccountRow, type RowControls } from './account-row';

const PASSWORD_ID = 'recovery-codes-password';
const RECOVERY_CODES_FILE = 'recovery-codes.txt';

const left = (remaining: number, i18n: I18n) =>
  i18n._(
    remaining === 0
      ? msg`None yet`
      : msg`${plural(remaining, { one: '# unused code', other: '# unused codes' })}`,
  );

/** The current password, then a new set of codes. */
function GenerateForm({
  replacing,
  onMade,
  onCancel,
  onFailed,
}: {
  replacing: boolean;
  onMade(codes: string[]): void;
  onCancel(): void;
  onFailed(message: string): void;
}) {
  const { t } = useLingui();
  const { password, onChange, error, pending, input, submit } = usePasswordConfirmation(async (entered) => {
    const outcome = await generateRecoveryCodes(entered);
    if (outcome.kind !== 'made') return outcome;
    onMade(outcome.codes);
  }, onFailed);

  return (
    <form className="account-factors__remove" onSubmit={(e) => void submit(e)} noValidate>
      <p>
        {replacing
          ? t`New codes replace the ones you have now: the old ones stop working. To make them, enter your current password.`
          : t`To make your recovery codes, enter your current password.`}
      </p>
      <CurrentPasswordField ref={input} id={PASSWORD_ID} value={password} error={error} onChange={onChange} />
      <FormActions busy={pending} busyText={t`Making recovery codes`} onCancel={onCancel}>
        <Trans>Make recovery codes</Trans>
      </FormActions>
    </form>
  );
}

/** The codes as a text file to keep: what they are for, whose they are, and the codes, one a line. */
function downloadCodes(codes: string[], i18n: I18n) {
  const lender = getLenderBranding().name;
  const text = [
    i18n._(msg`${lender} recovery codes`),
    '',
    i18n._(msg`Each code signs you in once, if you can’t use your passkey, authenticator app or email.`),
    '',
    ...codes,
    '',
  ].join('\n');
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  link.download = RECOVERY_CODES_FILE;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The new codes, shown this once: to copy, download or print before they are gone. */
function NewCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const { t, i18n } = useLingui();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const [saved, setSaved] = useState<'copied' | 'downloaded' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setSaved('copied');
    } catch {
      setSaved(null);
    }
  };
  return (
    <div className="recovery-codes__new" data-testid="recovery-codes-new">
      <h3 ref={heading} tabIndex={-1}>
        <Trans>Save your recovery codes</Trans>
      </h3>
      <p>
        <Trans>
          Keep them somewhere safe, away from your phone: download them, print them or write them down. Each
          code works once. We won’t show them again.
        </Trans>
      </p>
      <ol className="recovery-codes__list" aria-label={t`Your recovery codes`}>
        {codes.map((code) => (
          <li key={code} className="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <p className="visually-hidden" role="status">
        {saved === 'copied' ? t`Codes copied.` : saved === 'downloaded' ? t`Codes downloaded.` : ''}
      </p>
      <div className="recovery-codes__keep">
        <button type="button" className="button button--secondary" onClick={() => void copy()}>
          {saved === 'copied' ? t`Copied` : t`Copy codes`}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => (downloadCodes(codes, i18n), setSaved('downloaded'))}
        >
          <Trans>Download codes</Trans>
        </button>
        <button type="button" className="button button--secondary" onClick={() => window.print()}>
          <Trans>Print codes</Trans>
        </button>
      </div>
      <div className="form-actions">
        <button type="button" className="button button--primary" onClick={onDone}>
          <Trans>I’ve saved them</Trans>
        </button>
      </div>
    </div>
  );
}

/**
 * Recovery codes: offered once the borrower has a second sign-in step (with the bundled identity
 * provider only). The row says how many are left; its form makes a new set for the current password,
 * shown once under the row until the borrower has saved them.
 */
export function RecoveryCodesSection({ refresh, onChanged }: { refresh: number; onChanged?: () => void }) {
  const { t, i18n } = useLingui();
  const { state, retry, reload } = useLoad(getRecoveryCodeStatus, [refresh]);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<SectionNoticeText | null>(null);
  const row = useRef<RowControls>(null);

  if (state.kind === 'off' || (state.kind === 'loaded' && !state.offered && !codes)) return null;
  const loaded = state.kind === 'loaded' ? state : null;

  return (
    <AccountRow
      ref={row}
      row={ACCOUNT_ROWS.recoveryCodes}
      title={t`Recovery codes`}
      testId="recovery-codes"
      summary={loaded ? left(loaded.remaining, i18n) : ''}
      summaryTestId="recovery-codes-left"
      action={loaded && !codes ? (loaded.remaining > 0 ? t`Make new codes` : t`Make codes`) : null}
      actionTestId="recovery-codes-open"
      onOpen={() => setNotice(null)}
      notices={
        <>
          <SectionNotice
            notice={notice}
            testId="recovery-codes-notice"
            takeFocus={notice?.tone === 'problem'}
          />
          <SectionLoading state={state} retry={retry} />
          {codes && (
            <NewCodes
              codes={codes}
              onDone={() => {
                setCodes(null);
                setNotice({ tone: 'done', text: t`Your new recovery codes are ready to use.` });
                reload();
                // The row's button is back: the focus goes to it.
                requestAnimationFrame(() => row.current?.focusButton());
              }}
            />
          )}
        </>
      }
    >
      {({ close }) =>
        loaded && (
          <div className="account-row__form">
            <p className="account-row__intro">
              <Trans>
                If you can’t use your second sign-in step, a recovery code signs you in instead. We’ll email
                you whenever new codes are made.
              </Trans>
            </p>
            <GenerateForm
              replacing={loaded.remaining > 0}
              onMade={(made) => {
                dismissLandingNotice();
                // The codes take the focus (their heading), under the row.
                close({ focusButton: false });
                setNotice(null);
                setCodes(made);
                onChanged?.();
              }}
              onCancel={() => close()}
              onFailed={(text) => setNotice({ tone: 'problem', text })}
            />
          </div>
        )
      }
    </AccountRow>
  );
}
