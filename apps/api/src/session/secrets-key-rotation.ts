import type { Kysely } from 'kysely';
import type { SecretsKeyRotation } from '@customer-core/contracts';
import { resealColumns, type SecretBox } from '@customer-core/database';
import type { ApiDatabase } from '../db/schema.js';
import { PRIVATE_KEY } from './signing-keys.js';

/** The API's columns holding a secret, sealed (the bundled identity provider seals its own). */
export const API_SEALED_COLUMNS = [PRIVATE_KEY];

/** The bundled identity provider, which seals secrets of its own (services.ts hands it over). */
export interface ProviderSecrets {
  /** Seals again with the active key every secret it keeps; how many. */
  resealSecrets(): Promise<number>;
}

/**
 * Operators rotate the key-encryption key: once every instance has the new key first in
 * SECRETS_KEYS, this seals every secret again with it, so the old key can then be dropped. Values
 * stay the same: every factor, signing key and token keeps working throughout.
 */
export const secretsResealing =
  (db: Kysely<ApiDatabase>, secrets: SecretBox, idp: ProviderSecrets | null) =>
  async (): Promise<SecretsKeyRotation> => {
    const api = await resealColumns(db, secrets, API_SEALED_COLUMNS, 'stale');
    const provider = idp ? await idp.resealSecrets() : 0;
    return { activeKeyId: secrets.activeKeyId, resealed: api + provider };
  };

export type SecretsResealing = ReturnType<typeof secretsResealing>;
