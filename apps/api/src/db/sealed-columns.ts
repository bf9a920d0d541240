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

/** A borrower's bank account number: never readable in a copy of the database. */
export const BANK_ACCOUNT_NUMBER: SealedColumn = {
  table: 'bank_account',
  key: 'id',
  column: 'account_number',
};

/** The micro-deposit amounts a borrower proves the account with. */
export const MICRO_AMOUNTS: SealedColumn = { table: 'bank_account', key: 'id', column: 'micro_amounts' };

/** A NACHA file as written: it holds account numbers. */
export const PAYMENT_FILE_CONTENT: SealedColumn = { table: 'payment_file', key: 'id', column: 'content' };

export const API_SEALED_COLUMNS = [
  PRIVATE_KEY,
  WEBHOOK_SECRET,
  BANK_ACCOUNT_NUMBER,
  MICRO_AMOUNTS,
  PAYMENT_FILE_CONTENT,
];
