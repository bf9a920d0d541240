import type { SealedColumn } from '@customer-core/database';

// The API's columns holding a secret, each sealed with the key-encryption key (SECRETS_KEYS), and
// sealed again with the new key when it rotates (the bundled identity provider seals its own).

/** A private key is sealed: a copy of the database mints no access token. */
export const PRIVATE_KEY: SealedColumn = {
  table: 'product_signing_key',
  key: 'kid',
  column: 'private_key_pem',
};

/** A webhook endpoint's signing secret: a copy of the database forges no event to the lender. */
export const WEBHOOK_SECRET: SealedColumn = { table: 'webhook_endpoint', key: 'id', column: 'secret' };

export const API_SEALED_COLUMNS = [PRIVATE_KEY, WEBHOOK_SECRET];
