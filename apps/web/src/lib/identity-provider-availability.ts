import { useEffect, useState } from 'react';
import { hasPortalConfig } from '../config/portal-config-meta';

export type IdentityProviderUnavailableReason = 'not-configured' | 'insecure-context';

export class IdentityProviderUnavailableError extends Error {
  readonly reason: IdentityProviderUnavailableReason;

  constructor(reason: IdentityProviderUnavailableReason) {
    // An error for the console and the error report: the screen shows its own words for each reason.
    /* eslint-disable lingui/no-unlocalized-strings */
    super(
      reason === 'not-configured'
        ? 'The identity provider client is missing: the portal has no valid identity provider configuration.'
        : 'The identity provider client is missing: sign-in needs a secure context (https or localhost).',
    );
    /* eslint-enable lingui/no-unlocalized-strings */
    this.name = 'IdentityProviderUnavailableError';
    this.reason = reason;
  }
}

/** Why no identity provider client can be built on this page, as far as is known without zod. */
export function getIdentityProviderUnavailableReason(): IdentityProviderUnavailableReason | null {
  if (!hasPortalConfig()) return 'not-configured';
  // PKCE needs crypto.subtle; without it okta-auth-js would silently skip signature checks.
  if (!window.isSecureContext) return 'insecure-context';
  return null;
}

/**
 * The same answer for a screen, completed once the configuration has been checked against
 * PortalConfigSchema (loaded after the first paint).
 */
export function useIdentityProviderUnavailableReason(): IdentityProviderUnavailableReason | null {
  const [reason, setReason] = useState(getIdentityProviderUnavailableReason);
  useEffect(() => {
    if (reason) return;
    let active = true;
    void import('../config/portal-config').then(({ getPortalConfig }) => {
      if (active && !getPortalConfig()) setReason('not-configured');
    });
    return () => {
      active = false;
    };
  }, [reason]);
  return reason;
}
