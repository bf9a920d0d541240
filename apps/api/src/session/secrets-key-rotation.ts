import type { SecretsKeyRotation } from '@customer-core/contracts';
import type { SecretBox } from '@customer-core/database';
import type { SigningKeyRepository } from './signing-key-repository.js';

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
  (signingKeys: SigningKeyRepository, secrets: SecretBox, idp: ProviderSecrets | null) =>
  async (): Promise<SecretsKeyRotation> => {
    const api = await signingKeys.resealStale();
    const provider = idp ? await idp.resealSecrets() : 0;
    return { activeKeyId: secrets.activeKeyId, resealed: api + provider };
  };

export type SecretsResealing = ReturnType<typeof secretsResealing>;
