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

// The configuration's full check (zod, PortalConfigSchema) comes after the first paint. On the sign-in
// screen it waits for the borrower to start using the form (checkPortalConfig, from its warm-up), so
// that a visit's first load carries only what the form needs; elsewhere it runs as the screen shows.
let configChecked: Promise<boolean> | undefined;
const waiting = new Set<() => void>();

/** Checks the configuration against its schema (once); the screens that wait for it then learn. */
export function checkPortalConfig(): Promise<boolean> {
  if (configChecked === undefined) {
    configChecked = import('../config/portal-config').then(
      ({ getPortalConfig }) => getPortalConfig() !== null,
    );
    // Woken once, and after the check has begun: each then reads the same answer.
    const woken = [...waiting];
    waiting.clear();
    for (const wake of woken) wake();
  }
  return configChecked;
}

/**
 * The same answer for a screen, completed once the configuration has been checked against
 * PortalConfigSchema: at once, or (`untilUsed`) once checkPortalConfig is called.
 */
export function useIdentityProviderUnavailableReason({
  untilUsed = false,
}: { untilUsed?: boolean } = {}): IdentityProviderUnavailableReason | null {
  const [reason, setReason] = useState(getIdentityProviderUnavailableReason);
  useEffect(() => {
    if (reason) return;
    let active = true;
    const check = () =>
      void checkPortalConfig().then((valid) => {
        if (active && !valid) setReason('not-configured');
      });
    if (untilUsed && configChecked === undefined) waiting.add(check);
    else check();
    return () => {
      active = false;
      waiting.delete(check);
    };
  }, [reason, untilUsed]);
  return reason;
}
