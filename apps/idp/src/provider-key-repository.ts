import { createHash, randomBytes, type JsonWebKey } from 'node:crypto';
import type { Kysely } from 'kysely';
import { newRsaKeyPair } from '@customer-core/contracts/server';
import { placeIn, type SealedColumn, type SecretBox } from '@customer-core/database';
import type { IdpDatabase } from './schema.js';

export interface SigningKeys {
  keys: JsonWebKey[];
}
export interface CookieKeys {
  keys: string[];
}

/** The keys' material is sealed (a JSON string); material kept before sealing began is the JSON itself. */
export const KEY_MATERIAL: SealedColumn = { table: 'idp_key', key: 'name', column: 'material', json: true };

/**
 * Returns the key material stored under `name`, creating it first if there is none. Concurrent
 * first start-ups each try to insert; the first insert wins and every instance reads back the winner.
 */
async function loadOrCreate<T>(
  db: Kysely<IdpDatabase>,
  secrets: SecretBox,
  name: string,
  create: () => Promise<T>,
): Promise<T> {
  const place = placeIn(KEY_MATERIAL, name);
  const read = async () => {
    const row = await db.selectFrom('idp_key').select('material').where('name', '=', name).executeTakeFirst();
    if (!row) return undefined;
    return (
      typeof row.material === 'string' ? JSON.parse(secrets.open(row.material, place)) : row.material
    ) as T;
  };
  const existing = await read();
  if (existing) return existing;
  const material = await create();
  await db
    .insertInto('idp_key')
    .values({ name, material: JSON.stringify(secrets.seal(JSON.stringify(material), place)) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await read();
  if (!stored) throw new Error(`identity provider key ${name} could not be stored`);
  return stored;
}

/** RFC 7638 thumbprint: a stable kid that okta-auth-js matches ID tokens against. */
function thumbprint(jwk: JsonWebKey): string {
  const members = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return createHash('sha256').update(members).digest('base64url');
}

async function newSigningKeys(): Promise<SigningKeys> {
  const { privateKey } = await newRsaKeyPair(2048);
  const jwk = privateKey.export({ format: 'jwk' });
  return { keys: [{ ...jwk, kid: thumbprint(jwk), alg: 'RS256', use: 'sig' }] };
}

async function newCookieKeys(): Promise<CookieKeys> {
  return { keys: [randomBytes(32).toString('base64url')] };
}

/** The row of the provider's signing keys in idp_key. */
export const SIGNING_KEYS_NAME = 'oidc-signing-keys';

export function loadSigningKeys(db: Kysely<IdpDatabase>, secrets: SecretBox): Promise<SigningKeys> {
  return loadOrCreate(db, secrets, SIGNING_KEYS_NAME, newSigningKeys);
}

/** The row of the provider's cookie keys in idp_key. */
const COOKIE_KEYS_NAME = 'oidc-cookie-keys';

export function loadCookieKeys(db: Kysely<IdpDatabase>, secrets: SecretBox): Promise<CookieKeys> {
  return loadOrCreate(db, secrets, COOKIE_KEYS_NAME, newCookieKeys);
}

/**
 * After a restore: the signing and cookie keys deleted, so that the provider's next start makes new
 * ones. Keys restored from a backup may have left with it, and with them anyone could sign an ID token
 * the portal accepts, or a provider cookie. Run while no instance serves (they hold the keys they
 * loaded). How many key sets were deleted.
 */
export async function retireProviderKeys(db: Kysely<IdpDatabase>): Promise<number> {
  const deleted = await db
    .deleteFrom('idp_key')
    .where('name', 'in', [SIGNING_KEYS_NAME, COOKIE_KEYS_NAME])
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']);

/** The verification half of the signing keys, as published at /v1/keys. */
export function publicJwks({ keys }: SigningKeys): { keys: JsonWebKey[] } {
  return {
    keys: keys.map((key) =>
      Object.fromEntries(Object.entries(key).filter(([member]) => !PRIVATE_MEMBERS.has(member))),
    ),
  };
}
