import {
  describeLocation,
  migrateToLatest,
  openDatabase,
  prepareDatabase,
  schemaStatus,
  SchemaMismatchError,
  type MigrateOptions,
  type SchemaStatus,
} from '@customer-core/database';
import { loadConfig, type Config } from './config/config.js';
import { secretBoxOf } from './config/secrets-key-file.js';
import type { ApiDatabase } from './db/schema.js';
import { schemaProblem } from './db/schema-check.js';
import { componentMigrations, resetIdentityProviderAfterRestore } from './services.js';
import { revocationRepository } from './session/revocation-repository.js';
import { signingKeyRepository } from './session/signing-key-repository.js';
import { generateSigningKey, type KeyRotation } from './session/signing-keys.js';

/**
 * The operators' steps run on the portal's database itself, not through a running portal: the
 * migration step (before the new release starts) and the step after a restore (before the restored
 * portal starts). They read the server's own settings (DATABASE_URL or DATA_DIR, SECRETS_KEYS,
 * IDP_BUNDLED), so they run where the server runs, with its environment.
 */
export interface DatabaseSteps {
  /** Where the database is, for the operator (never a password). */
  where: string;
  status(): Promise<SchemaStatus[]>;
  /** Runs every component's pending migrations; the names run, per component. */
  migrateUp(options: MigrateOptions): Promise<{ component: string; applied: string[] }[]>;
  afterRestore(): Promise<AfterRestore>;
  close(): Promise<void>;
}

export interface AfterRestore {
  rotation: KeyRotation;
  /** Borrowers whose every token (access and ID) is refused from now. */
  borrowersSignedOut: number;
  /** The bundled identity provider's sessions ended. */
  identityProviderSessions: number;
  /** The bundled identity provider's key sets (ID-token signing, cookies) deleted: new ones at its next start. */
  identityProviderKeySets: number;
}

export async function openDatabaseSteps(
  env: NodeJS.ProcessEnv,
  configured: Config = loadConfig(env),
): Promise<DatabaseSteps> {
  const config = configured;
  const components = componentMigrations(config);
  const location =
    config.database.kind === 'postgres' ? { ...config.database, maxConnections: 2 } : config.database;
  await prepareDatabase(location);
  // Two connections: one holds the migration lock while the other migrates.
  const db = openDatabase<ApiDatabase>(location, undefined, { forMigrations: true });
  const status = () =>
    Promise.all(Object.entries(components).map(([component, list]) => schemaStatus(db, component, list)));

  return {
    where: describeLocation(config.database),
    status,
    async migrateUp(options) {
      // The embedded database has one connection and one process: no lock to hold beside it.
      if (location.kind === 'pglite') options = { ...options, lockTimeoutMs: undefined };
      const done = [];
      for (const [component, list] of Object.entries(components))
        done.push({ component, applied: await migrateToLatest(db, component, list, options) });
      return done;
    },
    async afterRestore() {
      const statuses = await status();
      const problem = schemaProblem(statuses, false);
      if (problem) throw new SchemaMismatchError(problem, statuses);
      // A new key, and every earlier one deleted: no token signed before the restore verifies.
      const rotation = await signingKeyRepository(db, secretBoxOf(config)).rotate(generateSigningKey(), {
        retireAfterSeconds: 0,
        retireEarlierNow: true,
      });
      const borrowersSignedOut = await revocationRepository(db).cutOffEveryone();
      const idp = await resetIdentityProviderAfterRestore(config, db);
      return {
        rotation,
        borrowersSignedOut,
        identityProviderSessions: idp.sessions,
        identityProviderKeySets: idp.keySets,
      };
    },
    close: () => db.destroy(),
  };
}
