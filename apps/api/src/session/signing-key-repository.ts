import type { JsonWebKey } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { placeIn, resealColumn, resealColumns, type SecretBox } from '@customer-core/database';
import type { ApiDatabase } from '../db/schema.js';
import { API_SEALED_COLUMNS, PRIVATE_KEY } from '../db/sealed-columns.js';

/** A key as it is kept: its private half in PEM (sealed at rest), its public half as a JWK. */
export interface StoredSigningKey {
  kid: string;
  privateKeyPem: string;
  publicJwk: JsonWebKey;
}

export interface KeyRotation {
  /** The new key: it signs from now on (on other instances within KEY_RING_RELOAD_SECONDS). */
  activeKid: string;
  /** Every key that still verifies, the new one included. */
  verifyingKids: string[];
  /** Keys deleted now: superseded long enough ago that no token they signed is still current. */
  retiredKids: string[];
}

/** Serialises first start-ups and rotations: held by the transaction that adds a key. */
const lockKeys = (trx: Kysely<ApiDatabase>) =>
  sql`select pg_advisory_xact_lock(hashtext('product_signing_key'))`.execute(trx);

/** Within a transaction holding the key lock: a new key, which signs from now on. Its kid. */
async function insertKey(
  trx: Kysely<ApiDatabase>,
  secrets: SecretBox,
  key: StoredSigningKey,
): Promise<string> {
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

/**
 * The SQL of the API's signing keys (product_signing_key), their private halves sealed with `secrets`
 * and opened as they are read; and the resealing of the API's sealed columns.
 */
export function signingKeyRepository(db: Kysely<ApiDatabase>, secrets: SecretBox) {
  return {
    /** Every key, oldest first, its private half opened. */
    async all(): Promise<StoredSigningKey[]> {
      const rows = await db
        .selectFrom('product_signing_key')
        .select(['kid', 'private_key_pem', 'public_jwk'])
        .orderBy('created_at', 'asc')
        .orderBy('kid', 'asc')
        .execute();
      return rows.map((row) => ({
        kid: row.kid,
        privateKeyPem: secrets.open(row.private_key_pem, placeIn(PRIVATE_KEY, row.kid)),
        publicJwk: row.public_jwk,
      }));
    },

    /** Seals the keys kept before sealing began (until then they were read as they were). */
    sealPlain: (): Promise<number> => resealColumn(db, secrets, PRIVATE_KEY, 'plain'),

    /** Seals again with the active key every secret of the API sealed with another; how many. */
    resealStale: (): Promise<number> => resealColumns(db, secrets, API_SEALED_COLUMNS, 'stale'),

    /** Adds the key `newKey` makes unless one exists; the lock makes concurrent first start-ups agree. */
    async ensureOne(newKey: () => StoredSigningKey): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockKeys(trx);
        const existing = await trx
          .selectFrom('product_signing_key')
          .select('kid')
          .limit(1)
          .executeTakeFirst();
        if (!existing) await insertKey(trx, secrets, newKey());
      });
    },

    /**
     * Adds `key`, which signs from now on, and deletes the earlier keys superseded more than
     * `retireAfterSeconds` ago, or every earlier key with `retireEarlierNow`. Concurrent rotations
     * queue behind each other, like first start-ups.
     */
    rotate: (
      key: StoredSigningKey,
      { retireAfterSeconds, retireEarlierNow }: { retireAfterSeconds: number; retireEarlierNow: boolean },
    ): Promise<KeyRotation> =>
      db.transaction().execute(async (trx) => {
        await lockKeys(trx);
        const activeKid = await insertKey(trx, secrets, key);
        const retiredKids = retireEarlierNow
          ? (
              await trx
                .deleteFrom('product_signing_key')
                .where('kid', '!=', activeKid)
                .returning('kid')
                .execute()
            ).map((row) => row.kid)
          : await retireSupersededKeys(trx, retireAfterSeconds);
        const verifying = await trx
          .selectFrom('product_signing_key')
          .select('kid')
          .orderBy('created_at')
          .execute();
        return { activeKid, verifyingKids: verifying.map((k) => k.kid), retiredKids };
      }),
  };
}

export type SigningKeyRepository = ReturnType<typeof signingKeyRepository>;
