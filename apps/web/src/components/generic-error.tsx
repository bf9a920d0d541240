import { Trans, useLingui } from '@lingui/react/macro';
import { getLenderBranding } from '../config/portal-config-meta';
import { StatusView } from './status-view';
import { SupportPhone } from './support-phone';

/** Spec section 2, "Generic error screen": warning icon, title, body with the support phone, no button. */
export function GenericError() {
  const { t } = useLingui();
  const hasPhone = getLenderBranding().supportPhone !== null;
  return (
    <StatusView tone="warning" title={t`Something went wrong`} testId="generic-error">
      <p>
        {hasPhone ? (
          <Trans>
            There was an error processing your request. Please try again and if the error persists contact us
            at <SupportPhone />.
          </Trans>
        ) : (
          <Trans>
            There was an error processing your request. Please try again and if the error persists contact us.
          </Trans>
        )}
      </p>
    </StatusView>
  );
}
