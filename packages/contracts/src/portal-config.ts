import { z } from 'zod';

// Runtime configuration the server hands the portal in a <meta> tag, so one build serves every environment.
export const PORTAL_CONFIG_META_NAME = 'customer-core-config';

export const IdentityProviderConfigSchema = z.object({
  issuer: z.url(),
  clientId: z.string().min(1),
});
export type IdentityProviderConfig = z.infer<typeof IdentityProviderConfigSchema>;

export const PortalConfigSchema = z.object({
  lender: z.object({
    name: z.string().min(1),
    websiteUrl: z.url(),
    supportPhone: z.string().min(1),
  }),
  identityProviders: z.object({
    production: IdentityProviderConfigSchema,
    nonProduction: IdentityProviderConfigSchema,
  }),
});
export type PortalConfig = z.infer<typeof PortalConfigSchema>;

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

/** Scopes asked of the identity provider (spec section 1). */
export const IDP_SCOPES = ['openid', 'profile', 'email'] as const;
