import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** One step either side: a phone's clock a little off, or a code typed as it changed. */
const TOTP_WINDOW = 1;

/** A new shared secret (160 bits, RFC 4226's recommendation), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The time step the code belongs to, or undefined when it matches none in the window. The caller
 * must still refuse a step already used (see FactorRepository.claimTotpStep).
 */
export function totpStepOf(secretBase32: string, passCode: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(passCode)) return undefined;
  const totp = new TOTP({
    secret: Secret.fromBase32(secretBase32),
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    algorithm: 'SHA1',
  });
  const delta = totp.validate({ token: passCode, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now }) + delta;
}

/** Okta's `_embedded.activation` of an authenticator app being enrolled: the key and how to use it. */
export function totpActivation(secretBase32: string | null) {
  return {
    timeStep: TOTP_PERIOD_SECONDS,
    sharedSecret: secretBase32,
    encoding: 'base32',
    keyLength: TOTP_DIGITS,
  };
}
