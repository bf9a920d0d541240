import { createHash, generateKeyPair, randomBytes, type JsonWebKey } from 'node:crypto';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import type { IdpDatabase } from './schema.js';

const generateRsaKeyPair = promisify(generateKeyPair);

export interface SigningKeys {
  keys: JsonWebKey[];
}
export interface CookieKeys {
  keys: string[];
}

/**
 * Returns the key material stored under `name`, creating it first if there is none. Concurrent
 * first start-ups each try to insert; the first insert wins and every instance reads back the winner.
 */
async function loadOrCreate<T>(db: Kysely<IdpDatabase>, name: string, create: () => Promise<T>): Promise<T> {
  const read = () => db.selectFrom('idp_key').select('material').where('name', '=', name).executeTakeFirst();
  const existing = await read();
  if (existing) return existing.material as T;
  const material = await create();
  await db
    .insertInto('idp_key')
    .values({ name, material: JSON.stringify(material) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await read();
  if (!stored) throw new Error(`identity provider key ${name} could not be stored`);
  return stored.material as T;
}

/** RFC 7638 thumbprint: a stable kid that okta-auth-js matches ID tokens against. */
function thumbprint(jwk: JsonWebKey): string {
  const members = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return createHash('sha256').update(members).digest('base64url');
}

async function newSigningKeys(): Promise<SigningKeys> {
  const { privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { keys: [{ ...jwk, kid: thumbprint(jwk), alg: 'RS256', use: 'sig' }] };
}

async function newCookieKeys(): Promise<CookieKeys> {
  return { keys: [randomBytes(32).toString('base64url')] };
}

export function loadSigningKeys(db: Kysely<IdpDatabase>): Promise<SigningKeys> {
  return loadOrCreate(db, 'oidc-signing-keys', newSigningKeys);
}

export function loadCookieKeys(db: Kysely<IdpDatabase>): Promise<CookieKeys> {
  return loadOrCreate(db, 'oidc-cookie-keys', newCookieKeys);
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
