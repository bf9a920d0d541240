import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { IdpUser } from '../../user-repository.js';
import type { WebauthnCredential } from './webauthn-repository.js';

/** How long the browser may wait for the borrower at the authenticator. */
export const WEBAUTHN_TIMEOUT_MS = 120_000;

export interface RelyingParty {
  /** The portal's host: credentials are scoped to it. */
  id: string;
  name: string;
  /** The portal's origin: an assertion made on any other page is refused. */
  origin: string;
}

/** The portal (its first allowed origin) is the relying party: passkeys belong to its host. */
export function relyingPartyOf(allowedOrigins: readonly string[], name?: string): RelyingParty | undefined {
  const [first] = allowedOrigins;
  if (!first) return undefined;
  const url = new URL(first);
  return { id: url.hostname, name: name ?? url.hostname, origin: url.origin };
}

const transportsOf = (credential: WebauthnCredential) =>
  credential.transports as AuthenticatorTransportFuture[];

/**
 * The challenge the browser signed, read from clientDataJSON (base64url); undefined when it is no
 * such thing. Only to find the stored challenge: the library checks it against the one found.
 */
export function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON));
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(challenge) ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/** Options for navigator.credentials.create: a discoverable credential with user verification. */
export async function registrationOptions(
  rp: RelyingParty,
  user: IdpUser,
  challenge: string,
  existing: WebauthnCredential[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new TextEncoder().encode(user.id),
    userName: user.login,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.login,
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: WEBAUTHN_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((credential) => ({
      id: credential.credentialId,
      transports: transportsOf(credential),
    })),
    // Resident keys, so that the same credential also signs in without a password (a passkey).
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: [-7, -257],
  });
}

/** Options for navigator.credentials.get: the given credentials, or any of the site's (a passkey). */
export async function authenticationOptions(
  rp: RelyingParty,
  challenge: string,
  allow: WebauthnCredential[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: WEBAUTHN_TIMEOUT_MS,
    userVerification: 'required',
    allowCredentials: allow.map((credential) => ({
      id: credential.credentialId,
      transports: transportsOf(credential),
    })),
  });
}

export type VerifiedRegistration = {
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
};

/** The attestation's new credential, or undefined when it does not verify (any reason). */
export async function verifyRegistration(
  rp: RelyingParty,
  response: RegistrationResponseJSON,
  expectedChallenge: string,
): Promise<VerifiedRegistration | undefined> {
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!result.verified) return undefined;
    const { credential } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      signCount: credential.counter,
      transports: (response.response.transports ?? []).filter((t) => /^[a-z-]{1,20}$/.test(t)).slice(0, 8),
    };
  } catch {
    return undefined;
  }
}

/**
 * The assertion's new signature counter, or undefined when it does not verify: another origin or
 * relying party, no user verification, a bad signature, or a counter not above the stored one.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  credential: WebauthnCredential,
): Promise<number | undefined> {
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: credential.credentialId,
        publicKey: isoBase64URL.toBuffer(credential.publicKey),
        counter: credential.signCount,
        transports: transportsOf(credential),
      },
      requireUserVerification: true,
    });
    return result.verified ? result.authenticationInfo.newCounter : undefined;
  } catch {
    return undefined;
  }
}
