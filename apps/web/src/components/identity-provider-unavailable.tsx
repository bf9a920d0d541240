import { getLenderBranding } from '../config/portal-config-meta';
import { StatusView } from './status-view';
import { SupportPhone } from './support-phone';

/** The "missing identity provider client" error view (spec section 2). */
export function IdentityProviderUnavailable() {
  const hasPhone = getLenderBranding().supportPhone !== null;
  return (
    <StatusView tone="warning" title="Sign-in is unavailable" testId="identity-provider-unavailable">
      <p>
        The identity provider client is missing, so we can&rsquo;t sign you in from this page right now.
        Please try again later.
      </p>
      {hasPhone && (
        <p>
          Need help now? Call us at <SupportPhone />.
        </p>
      )}
    </StatusView>
  );
}
