// How a signer had signed in, as a signature certificate states it: read from the access token's amr
// (RFC 8176 method references, as the identity provider gave them at sign-in) and auth_time. The
// certificate words each kind in the signer's language (certificate-words.ts).

export type SignInMethod = 'password' | 'email_link' | 'passkey' | 'other';
export type SecondFactorEvidence =
  'authenticator_app_code' | 'passkey_or_security_key' | 'passkey_with_pin_or_biometrics' | 'yes' | 'none';

export interface SignInEvidence {
  /** The first factor; null when the token did not say. */
  method: SignInMethod | null;
  /** The second factor, or 'none' (a token that did not say: null). */
  secondFactor: SecondFactorEvidence | null;
  /** The amr values as the token had them, for whoever checks the certificate. */
  amr: string[] | null;
  at: Date | null;
}

export function signInOf(amr: string[] | null, at: Date | string | null): SignInEvidence {
  const has = (value: string) => amr?.includes(value) ?? false;
  const method = !amr
    ? null
    : has('pwd')
      ? 'password'
      : has('email')
        ? 'email_link'
        : has('hwk') || has('swk')
          ? 'passkey'
          : 'other';
  const secondFactor = !amr
    ? null
    : has('otp')
      ? 'authenticator_app_code'
      : has('pwd') && (has('hwk') || has('swk'))
        ? 'passkey_or_security_key'
        : has('hwk') && has('user')
          ? 'passkey_with_pin_or_biometrics'
          : has('mfa')
            ? 'yes'
            : 'none';
  return { method, secondFactor, amr, at: at === null ? null : new Date(at) };
}
