import type { IdentityProvider } from '@customer-core/idp';

/** The borrower every embedded (non-production) installation starts with, so a newcomer can sign in at once. */
export const DEMO_BORROWER = {
  login: 'demo@example.com',
  password: 'Demo-Borrower-1',
  firstName: 'Dana',
  lastName: 'Demo',
} as const;

export async function seedDemoBorrower(idp: IdentityProvider): Promise<void> {
  await idp.users.ensure({ ...DEMO_BORROWER, locale: 'en_US', timeZone: 'America/New_York' });
}
