import { ACCOUNT_ROWS, recoveryCodeEndpoints, routes } from '@customer-core/contracts';
import { Plural, Trans } from '@lingui/react/macro';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../components/banner';
import { sessionRequest } from '../../lib/auth/session-request';
import { dismissLandingNotice, readLandingNotice, type LandingNotice } from '../../lib/landing-notice';

/** What the notice says, how it looks, and whether it offers recovery codes (none left, or none yet). */
function wordingOf(notice: LandingNotice): {
  tone: 'info' | 'warning';
  text: ReactNode;
  offersCodes: boolean;
} {
  if (notice.kind === 'second-step-on')
    return {
      tone: 'info',
      text: (
        <Trans>
          Two-step verification is on. Make recovery codes too, so you can still sign in if you lose your
          phone.
        </Trans>
      ),
      offersCodes: true,
    };
  const { remaining } = notice;
  if (remaining === 0)
    return {
      tone: 'warning',
      text: (
        <Trans>
          You signed in with your last recovery code. Make new ones, so you can still sign in if you lose your
          phone.
        </Trans>
      ),
      offersCodes: true,
    };
  return {
    tone: remaining <= 2 ? 'warning' : 'info',
    text: (
      <Plural
        value={remaining}
        one="You signed in with a recovery code. It won’t work again: you have # recovery code left."
        other="You signed in with a recovery code. It won’t work again: you have # recovery codes left."
      />
    ),
    offersCodes: false,
  };
}

/**
 * The notice said before the sign-in redirect, on the home page until dismissed, in the page's
 * language. An offer of recovery codes shows only where they are offered (the bundled provider) and
 * the borrower has none left.
 */
export function LandingNoticeBanner() {
  const [notice, setNotice] = useState<LandingNotice | null>(readLandingNotice);
  const wording = notice && wordingOf(notice);
  const [checked, setChecked] = useState(!wording?.offersCodes);

  useEffect(() => {
    if (checked || !notice) return;
    const controller = new AbortController();
    void sessionRequest(recoveryCodeEndpoints.status, { signal: controller.signal }).then((result) => {
      if (controller.signal.aborted) return;
      if (result.isError || !result.data.offered || result.data.remaining > 0) {
        // Nothing to make (a hosted org, codes made meanwhile) or no way to tell: not offered.
        if (!result.isError) dismissLandingNotice();
        setNotice(null);
      }
      setChecked(true);
    });
    return () => controller.abort();
  }, [checked, notice]);

  if (!wording || !checked) return null;
  return (
    <Banner
      type={wording.tone}
      testId="landing-notice"
      onDismiss={() => {
        dismissLandingNotice();
        setNotice(null);
      }}
    >
      {wording.text}
      {wording.offersCodes && (
        <>
          {' '}
          <Link to={`${routes.account.path}#${ACCOUNT_ROWS.recoveryCodes}`}>
            <Trans>Make recovery codes</Trans>
          </Link>
        </>
      )}
    </Banner>
  );
}
