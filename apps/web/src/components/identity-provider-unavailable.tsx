import { Trans, useLingui } from '@lingui/react/macro';
import { getLenderBranding } from '../config/portal-config-meta';
import { StatusView } from './status-view';
import { SupportPhone } from './support-phone';

/** The "missing identity provider client" error view (spec section 2). */
export function IdentityProviderUnavailable() {
  const { t } = useLingui();
  const hasPhone = getLenderBranding().supportPhone !== null;
  return (
    <StatusView tone="warning" title={t`Sign-in is unavailable`} testId="identity-provider-unavailable">
      <p>
        <Trans>
          The identity provider client is missing, so we can’t sign you in from this page right now. Please
          try again later.
        </Trans>
      </p>
      {hasPhone && (
        <p>
          <Trans>
            Need help now? Call us at <SupportPhone />.
          </Trans>
        </p>
      )}
    </StatusView>
  );
}
