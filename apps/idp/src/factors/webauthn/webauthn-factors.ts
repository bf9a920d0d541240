import type { FastifyBaseLogger } from 'fastify';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { UserRepository } from '../../user-repository.js';
import {
  authenticationOptions,
  challengeOf,
  registrationOptions,
  verifyAssertion,
  verifyRegistration,
  type RelyingParty,
} from './relying-party.js';
import type { WebauthnRepository } from './webauthn-repository.js';

/** What the browser gives back from navigator.credentials.create, as Okta's activate takes it (base64url). */
export interface Attestation {
  attestation: string;
  clientData: string;
  transports?: string[];
}

/** What the browser gives back from navigator.credentials.get, as Okta's verify takes it (base64url). */
export interface Assertion {
  clientData: string;
  authenticatorData: string;
  signatureData: string;
}

export type ActivateWebauthnOutcome = 'activated' | 'not_found' | 'refused';
export type PasskeyOutcome =
  { kind: 'signed_in'; userId: string } | { kind: 'unknown_credential' } | { kind: 'refused' };

/**
 * WebAuthn factors: enrolment and activation from the account page, the challenge and check of a
 * second factor at sign-in, and the passkey sign-in without a password. Every check is the
 * library's (origin, relying party, user verification, signature, counter); this adds the
 * single-use challenges and the stored counter.
 */
export function webauthnFactors(deps: {
  repository: WebauthnRepository;
  users: UserRepository;
  rp: RelyingParty;
  logger: FastifyBaseLogger;
}) {
  const { repository, users, rp, logger } = deps;

  /** An assertion of a known credential checked against a challenge already taken; true when its use is recorded. */
  async function checkAssertion(
    response: AuthenticationResponseJSON,
    challenge: string,
    credential: Awaited<ReturnType<WebauthnRepository['ofFactor']>> & object,
  ): Promise<boolean> {
    const counter = await verifyAssertion(rp, response, challenge, credential);
    if (counter === undefined) return false;
    // Counters that stay at 0 (many passkeys) rely on the single-use challenge instead.
    return repository.recordUse(credential.factorId, credential.signCount, counter);
  }

  return {
    relyingParty: rp,

    /** Starts a WebAuthn factor for the user: a pending factor and the options for the browser. */
    async enrol(userId: string) {
      const user = await users.findById(userId);
      if (!user) return undefined;
      const factorId = await repository.createPendingFactor(userId);
      const challenge = await repository.issueChallenge('enrol', userId, factorId);
      const options = await registrationOptions(rp, user, challenge, await repository.ofUser(userId));
      logger.info({ userId, factorId }, 'webauthn enrolment started');
      return { factorId, options };
    },

    /** The browser's attestation activates the pending factor under the borrower's name for it. */
    async activate(
      userId: string,
      factorId: string,
      name: string,
      attestation: Attestation,
    ): Promise<ActivateWebauthnOutcome> {
      const log = logger.child({ userId, factorId });
      const challenge = challengeOf(attestation.clientData);
      const taken = challenge && (await repository.takeChallenge(challenge, 'enrol', userId, factorId));
      if (!challenge || !taken) {
        log.info({ outcome: 'no_challenge' }, 'webauthn activation refused');
        return 'not_found';
      }
      const verified = await verifyRegistration(
        rp,
        {
          // The id is the credential's in the attestation; verifyRegistration reads it from there.
          id: 'attestation',
          rawId: 'attestation',
          type: 'public-key',
          clientExtensionResults: {},
          response: {
            attestationObject: attestation.attestation,
            clientDataJSON: attestation.clientData,
            transports: (attestation.transports ?? []) as never,
          },
        },
        challenge,
      );
      if (!verified || (await repository.credentialExists(verified.credentialId))) {
        log.info(
          { outcome: verified ? 'credential_taken' : 'bad_attestation' },
          'webauthn activation refused',
        );
        return 'refused';
      }
      const activated = await repository.activate({ ...verified, factorId, userId, name });
      if (activated === 'taken') {
        log.info({ outcome: 'credential_taken' }, 'webauthn activation refused');
        return 'refused';
      }
      if (!activated) return 'not_found';
      log.info('webauthn factor activated');
      return 'activated';
    },

    /** Okta's profile of each WebAuthn factor of the user (its credential and name), by factor id. */
    async profiles(
      userId: string,
    ): Promise<Map<string, { credentialId: string; authenticatorName: string }>> {
      return new Map(
        (await repository.ofUser(userId)).map((credential) => [
          credential.factorId,
          { credentialId: credential.credentialId, authenticatorName: credential.name },
        ]),
      );
    },

    /** The names the user gave their WebAuthn factors, by factor id. */
    async names(userId: string): Promise<Map<string, string>> {
      return new Map(
        (await repository.ofUser(userId)).map((credential) => [credential.factorId, credential.name]),
      );
    },

    /** A sign-in's second factor: a challenge for this factor's credential. */
    async challenge(userId: string, factorId: string) {
      const credential = await repository.ofFactor(userId, factorId);
      if (!credential) return undefined;
      const challenge = await repository.issueChallenge('verify', userId, factorId);
      return { challenge, credential, options: await authenticationOptions(rp, challenge, [credential]) };
    },

    /** Checks a sign-in's assertion for this factor against a challenge issued for it. */
    async verify(userId: string, factorId: string, assertion: Assertion): Promise<boolean> {
      const credential = await repository.ofFactor(userId, factorId);
      const challenge = challengeOf(assertion.clientData);
      if (
        !credential ||
        !challenge ||
        !(await repository.takeChallenge(challenge, 'verify', userId, factorId))
      )
        return false;
      return checkAssertion(
        {
          id: credential.credentialId,
          rawId: credential.credentialId,
          type: 'public-key',
          clientExtensionResults: {},
          response: {
            clientDataJSON: assertion.clientData,
            authenticatorData: assertion.authenticatorData,
            signature: assertion.signatureData,
          },
        },
        challenge,
        credential,
      );
    },

    /** Options for a passkey sign-in: a challenge no user is named for yet, any of the site's credentials. */
    async passkeyOptions() {
      const challenge = await repository.issueChallenge('passkey', null, null);
      return authenticationOptions(rp, challenge, []);
    },

    /** A passkey sign-in: the credential names the user; its user handle must agree. */
    async passkeySignIn(response: AuthenticationResponseJSON): Promise<PasskeyOutcome> {
      const challenge = challengeOf(response.response.clientDataJSON);
      // The challenge goes first, whatever follows: each is tried once.
      if (!challenge || !(await repository.takeChallenge(challenge, 'passkey', null, null)))
        return { kind: 'refused' };
      const credential = await repository.byCredentialId(response.id);
      if (!credential) return { kind: 'unknown_credential' };
      const handle = response.response.userHandle;
      if (handle !== undefined && handle !== Buffer.from(credential.userId).toString('base64url'))
        return { kind: 'refused' };
      if (!(await checkAssertion(response, challenge, credential))) return { kind: 'refused' };
      return { kind: 'signed_in', userId: credential.userId };
    },
  };
}

export type WebauthnFactors = ReturnType<typeof webauthnFactors>;
