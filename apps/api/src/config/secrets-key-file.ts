import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  createSecretBox,
  newSecretKeyEntry,
  parseSecretKeys,
  type SecretBox,
  type SecretKey,
} from '@customer-core/database/secret-box';
import { createOwnerOnlyFile } from './owner-only-file.js';

// Outside production without SECRETS_KEYS, the key that seals the database's secrets is made on first
// start and kept in the data directory, readable by the owner only, so `npm start` needs no setup.
// Production refuses to start without SECRETS_KEYS: a key beside the data protects no backup.

export const SECRETS_KEY_FILE = 'secrets-key';
export const secretsKeyPath = (dataDir: string) => path.resolve(dataDir, SECRETS_KEY_FILE);

function read(file: string): SecretKey[] | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = parseSecretKeys(text.trim());
  if ('problem' in parsed) throw new Error(`${file}: ${parsed.problem}`);
  return parsed.keys;
}

/** The key ring in the file, made on first use, readable by the owner only. */
export function ensureSecretsKeyFile(file: string): SecretKey[] {
  const existing = read(file);
  if (existing) return existing;
  createOwnerOnlyFile(file, `${newSecretKeyEntry('local')}\n`);
  const made = read(file);
  if (!made) throw new Error(`${file} vanished while being made`);
  return made;
}

/** The box that seals the database's secrets: SECRETS_KEYS, else the development key file. */
export function secretBoxOf(config: {
  secretKeys: SecretKey[] | null;
  secretsKeyFile: string | null;
}): SecretBox {
  if (config.secretKeys) return createSecretBox(config.secretKeys);
  if (!config.secretsKeyFile) throw new Error('no key to seal secrets with: set SECRETS_KEYS');
  return createSecretBox(ensureSecretsKeyFile(config.secretsKeyFile));
}
