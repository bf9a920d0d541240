import { createPrivateKey, createPublicKey, randomUUID, type JsonWebKey, type KeyObject } from 'node:crypto';
import { newEcKeyPair } from '@customer-core/contracts/server';
import type { KeyRotation, SigningKeyRepository, StoredSigningKey } from './signing-key-repository.js';

export type { KeyRotation } from './signing-key-repository.js';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: JsonWebKey;
}

/** How often each instance looks for a key rotated in elsewhere, so that it soon signs with it too. */
export const KEY_RING_RELOAD_SECONDS = 60;

/**
 * The API's ES256 keys for product access tokens, kept in the database so every instance signs
 * and verifies with the same keys. The newest key signs; all keys verify.
 */
export class ProductKeyRing {
  #keys = new Map<string, SigningKey>();
  #active!: SigningKey;
  #publicJwksJson = '';
  #lastReload = 0;

  private constructor(private readonly repository: SigningKeyRepository) {}

  /** The keys, a first one made unless one exists (concurrent first start-ups agree on it). */
  static async open(repository: SigningKeyRepository): Promise<ProductKeyRing> {
    const ring = new ProductKeyRing(repository);
    // Keys kept before sealing began are sealed now; until then they were read as they were.
    await repository.sealPlain();
    await repository.ensureOne(generateSigningKey);
    await ring.reload();
    return ring;
  }

  get active(): SigningKey {
    return this.#active;
  }

  find(kid: string): SigningKey | undefined {
    return this.#keys.get(kid);
  }

  /** Another instance may have rotated in a key this one has not seen; look again, at most once a second. */
  async findOrReload(kid: string): Promise<SigningKey | undefined> {
    const known = this.#keys.get(kid);
    if (known || Date.now() - this.#lastReload < 1000) return known;
    await this.reload();
    return this.#keys.get(kid);
  }

  publicJwks(): { keys: JsonWebKey[] } {
    return { keys: [...this.#keys.values()].map((k) => k.publicJwk) };
  }

  /** The same, serialised once per key change: the JWKS is fetched far more often than keys change. */
  publicJwksJson(): string {
    return this.#publicJwksJson;
  }

  /** Reloads every KEY_RING_RELOAD_SECONDS until the returned function is called. */
  keepCurrent(onError: (error: unknown) => void): () => void {
    const timer = setInterval(
      () => void this.reload().catch(onError),
      KEY_RING_RELOAD_SECONDS * 1000,
    ).unref();
    return () => clearInterval(timer);
  }

  async reload(): Promise<void> {
    const rows = await this.repository.all();
    const keys = new Map<string, SigningKey>();
    for (const row of rows) {
      const privateKey = createPrivateKey(row.privateKeyPem);
      keys.set(row.kid, {
        kid: row.kid,
        privateKey,
        publicKey: createPublicKey(privateKey),
        publicJwk: row.publicJwk,
      });
    }
    const newest = [...keys.values()].at(-1);
    if (!newest) throw new Error('No product signing key in the database');
    this.#keys = keys;
    this.#active = newest;
    this.#publicJwksJson = JSON.stringify(this.publicJwks());
    this.#lastReload = Date.now();
  }
}

/**
 * Adds a new signing key. Earlier keys keep verifying until `retireAfterSeconds` after they were
 * superseded: the lifetime of an access token, plus the time an instance may take to start signing
 * with the new key. After a leak, `retireEarlierNow` deletes them at once, which ends every
 * borrower's session. Concurrent rotations are serialised, like first start-ups.
 */
export const rotateSigningKey = (
  repository: SigningKeyRepository,
  options: { retireAfterSeconds: number; retireEarlierNow: boolean },
): Promise<KeyRotation> => repository.rotate(generateSigningKey(), options);

export function generateSigningKey(): StoredSigningKey {
  const { privateKey, publicKey } = newEcKeyPair();
  const kid = randomUUID();
  const publicJwk: JsonWebKey = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicJwk };
}

/** A token signed just before a rotation, by an instance that had not reloaded its keys yet, must outlive it. */
export const signingKeyRetirementSeconds = (config: { accessTokenTtlSeconds: number }) =>
  config.accessTokenTtlSeconds + 2 * KEY_RING_RELOAD_SECONDS;

/**
 * Operators rotate the product signing key: a new active key, which this instance signs with at once
 * (the others within KEY_RING_RELOAD_SECONDS), the earlier ones retired after `retireAfterSeconds`
 * (signingKeyRetirementSeconds), or at once after a leak.
 */
export const signingKeyRotation =
  (repository: SigningKeyRepository, keys: ProductKeyRing, retireAfterSeconds: number) =>
  async (retireEarlierNow: boolean): Promise<KeyRotation> => {
    const rotation = await rotateSigningKey(repository, { retireAfterSeconds, retireEarlierNow });
    await keys.reload();
    return rotation;
  };

export type SigningKeyRotation = ReturnType<typeof signingKeyRotation>;
