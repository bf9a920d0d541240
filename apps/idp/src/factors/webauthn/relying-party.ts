import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { IdpUser } from '../../user-repository.js';
import type { WebauthnCredential } from './webauthn-repository.js';

/**
 * The library, loaded at the first passkey ceremony of the process: with its CBOR and ASN.1 parsers it
 * is some MB of memory that a server whose borrowers sign in with passwords never needs.
 */
const library = () => import('@simplewebauthn/server');

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

/** Bytes of their own (the library reads them whole, from offset 0), not a slice of node's pool. */
const fromBase64url = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));

const transportsOf = (credential: WebauthnCredential) =>
  credential.transports as AuthenticatorTransportFuture[];

/**
 * The challenge the browser signed, read from clientDataJSON (base64url); undefined when it is no
 * such thing. Only to find the stored challenge: the library checks it against the one found.
 */
export function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
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
  const { generateRegistrationOptions } = await library();
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new TextEncoder().encode(user.id),
    userName: user.login,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.login,
    challenge: fromBase64url(challenge),
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
  const { generateAuthenticationOptions } = await library();
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: fromBase64url(challenge),
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
  const { verifyRegistrationResponse } = await library();
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
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
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
  const { verifyAuthenticationResponse } = await library();
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: credential.credentialId,
        publicKey: fromBase64url(credential.publicKey),
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
