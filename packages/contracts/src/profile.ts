import { z } from 'zod';

// The identity profile stored in the browser after sign-in (spec section 3, key mf-profile):
// the identity provider's user profile as returned by its authn call.
export const StoredProfileSchema = z.object({
  login: z.string(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  locale: z.string().nullish(),
  timeZone: z.string().nullish(),
});
export type StoredProfile = z.infer<typeof StoredProfileSchema>;
