/** What a password sign-in came to at /api/v1/authn. */
export type PasswordSignInOutcome =
  'success' | 'factor_required' | 'wrong_password' | 'unknown_login' | 'locked' | 'busy';

/** What the provider tells its host's metrics (the host counts; the provider only reports). */
export interface IdpMetrics {
  signIn(method: 'password', outcome: PasswordSignInOutcome): void;
  /** A failure started a lockout: of the account for one client network, or of its password sign-in. */
  lockout(scope: 'network' | 'account'): void;
  /** A password check waited this long for a core. */
  passwordCheckWaited(seconds: number): void;
}
