import { z } from 'zod';

// Runtime configuration the server hands the portal in a <meta> tag, so one build serves every environment.

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
