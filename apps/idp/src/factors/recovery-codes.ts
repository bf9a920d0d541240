/**
 * Recovery codes are a factor of the bundled provider's own (Okta has none by this name): listed in
 * MFA_REQUIRED beside the user's real factors while they have unused codes, verified with
 * `passCode` as any code factor is, so okta-auth-js drives it unchanged.
 */
export const RECOVERY_CODE_FACTOR = { factorType: 'recovery_code', provider: 'CUSTOMER_CORE' } as const;

export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32 (no i, l, o or u: nothing to misread on paper): 5 bits a character. */
export const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const CODE_CHARACTERS = 16; // 16 x 5 = 80 bits

/** The recovery factor's id in the user's transactions: one per user, letters and digits. */
export const recoveryFactorId = (userId: string) => `rc${userId.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 64);

/** What the borrower typed, as it was generated: lower case, without spaces or dashes. */
export function normalisedRecoveryCode(input: string): string | undefined {
  const code = input.toLowerCase().replace(/[\s-]/g, '');
  if (code.length !== CODE_CHARACTERS || [...code].some((c) => !ALPHABET.includes(c))) return undefined;
  return code;
}
