import { selectIdentityProvider, type PortalConfig } from '@customer-core/contracts';
import { readRawPortalConfig } from '../../config/portal-config-meta';

/**
 * Whether this page's identity provider keeps passkeys for the portal's own host (the bundled one:
 * `passkeySignInIssuer`) and the browser has WebAuthn. A hosted org's passkeys belong to its own
 * domain: the portal's pages can neither make nor use them. Read without zod: it runs on the sign-in
 * form.
 */
export function passkeysWorkHere(): boolean {
  if (typeof window.PublicKeyCredential !== 'function') return false;
  const config = readRawPortalConfig() as Partial<PortalConfig> | null;
  if (!config?.passkeySignInIssuer || !config.identityProviders) return false;
  return (
    selectIdentityProvider(config as PortalConfig, window.location.origin).issuer ===
    config.passkeySignInIssuer
  );
}
