import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createOwnerOnlyFile } from './owner-only-file.js';
import { MIN_SECRET_LENGTH, serviceCredential, type ServiceCredential } from './service-credentials.js';

// The embedded default's operator credential: a secret in the data directory that the server accepts
// as a service credential of the `operator` scope and the CLI presents, so `npm start` then `npm run cli` works
// with no setup. Production configures SERVICE_CREDENTIALS instead. The secret is never logged.

export const OPERATOR_CREDENTIAL_FILE = 'operator-credential';
export const operatorCredentialPath = (dataDir: string) => path.resolve(dataDir, OPERATOR_CREDENTIAL_FILE);

export class OperatorCredentialError extends Error {}

/** The credential in the file; undefined if there is no file. Throws if it is unreadable or too short. */
export function readOperatorCredential(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new OperatorCredentialError(`${file} cannot be read: ${(error as Error).message}`);
  }
  const credential = text.trim();
  if (credential.length < MIN_SECRET_LENGTH)
    throw new OperatorCredentialError(
      `${file} must hold a secret of at least ${MIN_SECRET_LENGTH} characters; delete it to have a new one made`,
    );
  return credential;
}

/** The credential in the file, made on first use: 32 random bytes, base64url, readable by the owner only. */
export function ensureOperatorCredential(file: string): string {
  const existing = readOperatorCredential(file);
  if (existing) return existing;
  createOwnerOnlyFile(file, `${randomBytes(32).toString('base64url')}\n`);
  const credential = readOperatorCredential(file);
  if (!credential) throw new OperatorCredentialError(`${file} vanished while being made`);
  return credential;
}

interface CredentialSettings {
  serviceCredentials: ServiceCredential[];
  operatorCredentialFile: string | null;
}

/** The configuration with the embedded operator credential among its service credentials, if it uses one. */
export function withEmbeddedOperatorCredential<C extends CredentialSettings>(config: C): C {
  if (!config.operatorCredentialFile) return config;
  const embedded = serviceCredential(
    'operator',
    'operator',
    ensureOperatorCredential(config.operatorCredentialFile),
  );
  return { ...config, serviceCredentials: [...config.serviceCredentials, embedded] };
}
