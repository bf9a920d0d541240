import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: JsonWebKey;
}

/**
 * The API's ES256 keys for product access tokens, kept in the database so every instance signs
 * and verifies with the same keys. The newest key signs; all keys verify.
 */
export class ProductKeyRing {
  #keys = new Map<string, SigningKey>();
  #active!: SigningKey;
  #publicJwksJson = '';
  #lastReload = 0;

  private constructor(private readonly db: Kysely<ApiDatabase>) {}

  static async open(db: Kysely<ApiDatabase>): Promise<ProductKeyRing> {
    const ring = new ProductKeyRing(db);
    await ensureOneKey(db);
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

  async reload(): Promise<void> {
    const rows = await this.db
      .selectFrom('product_signing_key')
      .select(['kid', 'private_key_pem', 'public_jwk'])
      .orderBy('created_at', 'asc')
      .orderBy('kid', 'asc')
      .execute();
    const keys = new Map<string, SigningKey>();
    for (const row of rows) {
      const privateKey = createPrivateKey(row.private_key_pem);
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
async function ensureOneKey(db: Kysely<ApiDatabase>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('product_signing_key'))`.execute(trx);
    const existing = await trx.selectFrom('product_signing_key').select('kid').limit(1).executeTakeFirst();
    if (existing) return;
    const key = generateSigningKey();
    await trx
      .insertInto('product_signing_key')
      .values({ kid: key.kid, private_key_pem: key.privateKeyPem, public_jwk: JSON.stringify(key.publicJwk) })
      .execute();
  });
}

export function generateSigningKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = randomUUID();
  const publicJwk: JsonWebKey = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicJwk };
}
