import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Secrets kept in the database (TOTP secrets, private signing keys) are sealed with a key-encryption
// key held outside it, so a copy of the database or of a backup gives none of them away. Each sealed
// value names the key that sealed it, so a ring of keys can be rotated without downtime: the first
// key seals, every key opens.
//
// A sealed value is `v1:<kid>:<iv>:<ciphertext>:<tag>` (base64url parts), AES-256-GCM with a random
// 96-bit IV. Its authenticated data is where the value lives (table, column and row), so a ciphertext
// copied into another row does not open there.

const VERSION = 'v1';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const KEY_BYTES = 32;
const IV_BYTES = 12;

export interface SecretKey {
  id: string;
  key: Buffer;
}

/** Where a sealed value lives, e.g. `idp_factor.secret:uf123`: it opens only there. */
export const secretPlace = (table: string, column: string, row: string) => `${table}.${column}:${row}`;

export class SecretOpenError extends Error {}

export interface SecretBox {
  /** The key that seals new values (the ring's first). */
  readonly activeKeyId: string;
  seal(plain: string, place: string): string;
  /** The plain value; a value stored before sealing began (not sealed) is returned as it is. */
  open(stored: string, place: string): string;
  /** Whether the stored value is sealed with the active key (else a rotation seals it again). */
  isCurrent(stored: string): boolean;
}

/** How every sealed value begins; with a key id, every value that key sealed. */
export const sealedPrefix = (keyId?: string) =>
  keyId === undefined ? `${VERSION}:` : `${VERSION}:${keyId}:`;

export const isSealed = (stored: string) => stored.startsWith(sealedPrefix());

export function createSecretBox(keys: readonly SecretKey[]): SecretBox {
  const active = keys[0];
  if (!active) throw new Error('a secret box needs at least one key');
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  return {
    activeKeyId: active.id,
    seal(plain, place) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', active.key, iv);
      cipher.setAAD(Buffer.from(place, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, active.id, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join(':');
    },
    open(stored, place) {
      if (!isSealed(stored)) return stored;
      const [, id, iv, ciphertext, tag] = stored.split(':');
      const key = id === undefined ? undefined : byId.get(id);
      if (!key || iv === undefined || ciphertext === undefined || tag === undefined)
        throw new SecretOpenError(
          key ? `a sealed value at ${place} is malformed` : `no key "${id}" to open the value at ${place}`,
        );
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(place, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretOpenError(`the value at ${place} does not open with key "${id}"`);
      }
    },
    isCurrent: (stored) => stored.startsWith(sealedPrefix(active.id)),
  };
}

/**
 * A key ring as settings give it: `kid:base64-of-32-bytes` entries, comma-separated, the first sealing.
 * Problems name no key material.
 */
export function parseSecretKeys(value: string): { keys: SecretKey[] } | { problem: string } {
  const keys: SecretKey[] = [];
  for (const entry of value.split(',').map((e) => e.trim())) {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    if (!KEY_ID.test(id))
      return {
        problem:
          'each entry is <key id>:<32 bytes in base64> (id: 1 to 32 letters, digits, _ or -), comma-separated',
      };
    const material = entry.slice(colon + 1);
    const key = Buffer.from(material, 'base64');
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(material) || key.length !== KEY_BYTES)
      return { problem: `key "${id}" must be ${KEY_BYTES} bytes in base64 (openssl rand -base64 32)` };
    if (keys.some((k) => k.id === id)) return { problem: `key id "${id}" appears twice` };
    keys.push({ id, key });
  }
  return { keys };
}

/** A new ring entry: `kid:base64` (the development key file holds one). */
export const newSecretKeyEntry = (id: string) => `${id}:${randomBytes(KEY_BYTES).toString('base64')}`;
