import type { IdpUser, NewUser } from '@customer-core/idp';

/** What the portal asks of the bundled identity provider (none of it exists with a hosted Okta org). */
export interface BundledIdentityProvider {
  issuer: string;
  endSessions(accountId: string): Promise<void>;
  /** Whether the IdP session an ID token names (its sid) is still signed in as this account. */
  hasSession(sessionId: string, accountId: string): Promise<boolean>;
  users: {
    /** Throws LoginAlreadyExistsError when the login (case-insensitive) is taken. */
    create(input: NewUser): Promise<IdpUser>;
    findById(id: string): Promise<IdpUser | undefined>;
    findByLogin(login: string): Promise<IdpUser | undefined>;
    setPassword(id: string, password: string): Promise<void>;
  };
  issueSessionToken(userId: string): Promise<{ sessionToken: string; expiresAt: Date }>;
}
