import { ACCOUNT_ROWS, recoveryCodeEndpoints, routes } from '@customer-core/contracts';
import { Trans } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../components/banner';
import { sessionRequest } from '../../lib/auth/session-request';
import { dismissLandingNotice, readLandingNotice, type LandingNotice } from '../../lib/landing-notice';

/**
 * The notice said before the sign-in redirect, on the home page until dismissed. An offer of recovery
 * codes shows only where they are offered (the bundled provider) and the borrower has none left.
 */
export function LandingNoticeBanner() {
  const [notice, setNotice] = useState<LandingNotice | null>(readLandingNotice);
  const [checked, setChecked] = useState(notice?.offer === undefined);

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

  if (!notice || !checked) return null;
  return (
    <Banner
      type={notice.tone}
      testId="landing-notice"
      onDismiss={() => {
        dismissLandingNotice();
        setNotice(null);
      }}
    >
      {notice.text}
      {notice.offer === 'recovery-codes' && (
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
