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
  /** The issuer whose passkeys sign in without a password (the bundled provider's); null: none does. */
  passkeySignInIssuer: z.string().nullable().optional(),
  session: z.object({
    /** How long before an idle borrower's access token expires the portal offers to stay signed in. */
    warningSeconds: z.number().int().positive(),
  }),
  /** Error reporting runs only when the page's host name is productionHost and a DSN is set (spec 9). */
  errorReporting: z.object({
    dsn: z.string().nullable(),
    productionHost: z.string().nullable(),
    /** The local, development, staging and production origins whose errors are reported. */
    allowedOrigins: z.array(z.string()),
  }),
});
export type PortalConfig = z.infer<typeof PortalConfigSchema>;
