// How a signer had signed in, as a signature certificate states it: read from the access token's amr
// (RFC 8176 method references, as the identity provider gave them at sign-in) and auth_time.

export interface SignInEvidence {
  /** The first factor: "Password", "Email link", "Passkey"; null when the token did not say. */
  method: string | null;
  /** The second factor, or "None" (a token that did not say: null). */
  secondFactor: string | null;
  /** The amr values as the token had them, for whoever checks the certificate. */
  amr: string[] | null;
  at: Date | null;
}

export function signInOf(amr: string[] | null, at: Date | string | null): SignInEvidence {
  const has = (value: string) => amr?.includes(value) ?? false;
  const method = !amr
    ? null
    : has('pwd')
      ? 'Password'
      : has('email')
        ? 'Email link'
        : has('hwk') || has('swk')
          ? 'Passkey'
          : 'Other';
  const secondFactor = !amr
    ? null
    : has('otp')
      ? 'Authenticator app code'
      : has('pwd') && (has('hwk') || has('swk'))
        ? 'Passkey or security key'
        : has('hwk') && has('user')
          ? 'Passkey with its PIN or biometrics'
          : has('mfa')
            ? 'Yes'
            : 'None';
  return { method, secondFactor, amr, at: at === null ? null : new Date(at) };
}
