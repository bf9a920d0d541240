import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { placeIn, resealColumn, type SealedColumn, type SecretBox } from '@customer-core/database';
import type { ApiDatabase } from '../db/schema.js';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: JsonWebKey;
}

/** A private key is sealed: a copy of the database mints no access token. */
export const PRIVATE_KEY: SealedColumn = {
  table: 'product_signing_key',
  key: 'kid',
  column: 'private_key_pem',
};

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

  private constructor(
    private readonly db: Kysely<ApiDatabase>,
    private readonly secrets: SecretBox,
  ) {}

  static async open(db: Kysely<ApiDatabase>, secrets: SecretBox): Promise<ProductKeyRing> {
    const ring = new ProductKeyRing(db, secrets);
    // Keys kept before sealing began are sealed now; until then they were read as they were.
    await resealColumn(db, secrets, PRIVATE_KEY, 'plain');
    await ensureOneKey(db, secrets);
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
    const rows = await this.db
      .selectFrom('product_signing_key')
      .select(['kid', 'private_key_pem', 'public_jwk'])
      .orderBy('created_at', 'asc')
      .orderBy('kid', 'asc')
      .execute();
    const keys = new Map<string, SigningKey>();
    for (const row of rows) {
      const privateKey = createPrivateKey(
        this.secrets.open(row.private_key_pem, placeIn(PRIVATE_KEY, row.kid)),
      );
      keys.set(row.kid, {
        kid: row.kid,
        privateKey,
        publicKey: createPublicKey(privateKey),
        publicJwk: row.public_jwk,
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

/** Creates the first key unless one exists; the advisory lock makes concurrent first start-ups agree. */
async function ensureOneKey(db: Kysely<ApiDatabase>, secrets: SecretBox): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('product_signing_key'))`.execute(trx);
    const existing = await trx.selectFrom('product_signing_key').select('kid').limit(1).executeTakeFirst();
    if (!existing) await insertNewKey(trx, secrets);
  });
}

/** Within a transaction holding the key lock: a new key, which signs from now on. Its kid. */
async function insertNewKey(trx: Kysely<ApiDatabase>, secrets: SecretBox): Promise<string> {
  const key = generateSigningKey();
  await trx
    .insertInto('product_signing_key')
    .values({
      kid: key.kid,
      private_key_pem: secrets.seal(key.privateKeyPem, placeIn(PRIVATE_KEY, key.kid)),
      public_jwk: JSON.stringify(key.publicJwk),
    })
    .execute();
  return key.kid;
}

export interface KeyRotation {
  /** The new key: it signs from now on (on other instances within KEY_RING_RELOAD_SECONDS). */
  activeKid: string;
  /** Every key that still verifies, the new one included. */
  verifyingKids: string[];
  /** Keys deleted now: superseded long enough ago that no token they signed is still current. */
  retiredKids: string[];
}

/**
 * Adds a new signing key. Earlier keys keep verifying until `retireAfterSeconds` after they were
 * superseded: the lifetime of an access token, plus the time an instance may take to start signing
 * with the new key. After a leak, `retireEarlierNow` deletes them at once, which ends every
 * borrower's session. Concurrent rotations are serialised, like first start-ups.
 */
export async function rotateSigningKey(
  db: Kysely<ApiDatabase>,
  secrets: SecretBox,
  { retireAfterSeconds, retireEarlierNow }: { retireAfterSeconds: number; retireEarlierNow: boolean },
): Promise<KeyRotation> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('product_signing_key'))`.execute(trx);
    const activeKid = await insertNewKey(trx, secrets);
    const retiredKids = retireEarlierNow
      ? (
          await trx.deleteFrom('product_signing_key').where('kid', '!=', activeKid).returning('kid').execute()
        ).map((row) => row.kid)
      : await retireSupersededKeys(trx, retireAfterSeconds);
    const verifying = await trx
      .selectFrom('product_signing_key')
      .select('kid')
      .orderBy('created_at')
      .execute();
    return { activeKid, verifyingKids: verifying.map((k) => k.kid), retiredKids };
  });
}

/** Deletes keys superseded more than `retireAfterSeconds` ago (the newest key is never superseded). */
export async function retireSupersededKeys(
  db: Kysely<ApiDatabase>,
  retireAfterSeconds: number,
): Promise<string[]> {
  const { rows } = await sql<{ kid: string }>`
    delete from product_signing_key k
    where exists (
      select 1 from product_signing_key newer
      where newer.created_at > k.created_at
        and newer.created_at < now() - make_interval(secs => ${retireAfterSeconds})
    )
    returning k.kid`.execute(db);
  return rows.map((row) => row.kid);
}

export function generateSigningKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
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
  (db: Kysely<ApiDatabase>, secrets: SecretBox, keys: ProductKeyRing, retireAfterSeconds: number) =>
  async (retireEarlierNow: boolean): Promise<KeyRotation> => {
    const rotation = await rotateSigningKey(db, secrets, { retireAfterSeconds, retireEarlierNow });
    await keys.reload();
    return rotation;
  };

export type SigningKeyRotation = ReturnType<typeof signingKeyRotation>;
