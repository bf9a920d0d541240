// Zod-free on purpose: the portal's first paint imports these, and must not pull in the schemas.
import type { IdentityProviderConfig, PortalConfig } from './portal-config.js';

/** The <meta> tag in which the server hands the portal its runtime configuration. */
export const PORTAL_CONFIG_META_NAME = 'customer-core-config';

/** Scopes asked of the identity provider (spec section 1). */
export const IDP_SCOPES = ['openid', 'profile', 'email'] as const;

const NON_PRODUCTION_ORIGIN_MARKERS = ['dev', 'local', 'stg'] as const;

/** Spec section 1: an origin containing dev, local or stg uses the non-production identity provider. */
export function isNonProductionOrigin(origin: string): boolean {
  const lower = origin.toLowerCase();
  return NON_PRODUCTION_ORIGIN_MARKERS.some((marker) => lower.includes(marker));
}

export function selectIdentityProvider(config: PortalConfig, origin: string): IdentityProviderConfig {
  return isNonProductionOrigin(origin)
    ? config.identityProviders.nonProduction
    : config.identityProviders.production;
}
