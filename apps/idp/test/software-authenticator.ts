// A WebAuthn authenticator in software for the tests: a P-256 key made here, attestation "none",
// user present and verified, a signature counter it moves on itself. What a browser sends is built
// byte by byte as the specification lays it out; the identity provider's verifier is the real one.
import { createHash, randomBytes, sign, type KeyObject } from 'node:crypto';
import { newEcKeyPair } from '@customer-core/contracts/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftwareAuthenticatorOptions {
  /** The portal's origin the browser runs on (its host is the relying party id). */
  origin: string;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  counter = 0;
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Uint8Array;
  /** The user handle given at registration (the user's id, as bytes). */
  userHandle: Uint8Array | undefined;

  constructor(private readonly options: SoftwareAuthenticatorOptions) {
    const { privateKey, publicKey } = newEcKeyPair();
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private rpIdHash(origin: string) {
    return sha256(new URL(origin).hostname);
  }

  private clientData(type: string, challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create for these options: Okta's activate fields (base64url). */
  create(
    options: { challenge: string; user: { id: string } },
    origin = this.options.origin,
  ): { attestation: string; clientData: string; transports: string[] } {
    this.userHandle = Buffer.from(options.user.id, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.rpIdHash(origin),
      Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
      this.counterBytes(),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      this.cosePublicKey,
    ]);
    const attestation = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      attestation: b64url(attestation),
      clientData: b64url(this.clientData('webauthn.create', options.challenge, origin)),
      transports: ['internal'],
    };
  }

  private counterBytes() {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(this.counter);
    return bytes;
  }

  /**
   * navigator.credentials.get for a challenge: Okta's verify fields (base64url). The counter moves on
   * by one unless `counter` names the one to sign with (a cloned or replayed authenticator).
   */
  get(
    challenge: string,
    {
      origin = this.options.origin,
      counter,
      userVerified = true,
    }: { origin?: string; counter?: number; userVerified?: boolean } = {},
  ): { clientData: string; authenticatorData: string; signatureData: string } {
    if (counter === undefined) this.counter += 1;
    const used = counter ?? this.counter;
    const countBytes = Buffer.alloc(4);
    countBytes.writeUInt32BE(used);
    const authData = Buffer.concat([
      this.rpIdHash(origin),
      Buffer.from([FLAG_UP | (userVerified ? FLAG_UV : 0)]),
      countBytes,
    ]);
    const clientData = this.clientData('webauthn.get', challenge, origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.privateKey);
    return {
      clientData: b64url(clientData),
      authenticatorData: b64url(authData),
      signatureData: b64url(signature),
    };
  }

  /** The same assertion as PublicKeyCredential.toJSON() gives it (the passkey sign-in's body). */
  assertionJson(challenge: string, options: Parameters<SoftwareAuthenticator['get']>[1] = {}) {
    const { clientData, authenticatorData, signatureData } = this.get(challenge, options);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData,
        authenticatorData,
        signature: signatureData,
        ...(this.userHandle ? { userHandle: b64url(this.userHandle) } : {}),
      },
    };
  }
}
