import { hostname, userInfo } from 'node:os';
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
import type { AuditValue } from './audit/audit-record.js';
import { auditRepository } from './audit/audit-repository.js';
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

/** Who runs a step, for its record in the audit trail: the machine's user, and the reason given. */
export interface StepOperator {
  reason: string | null;
}

/** `cli:<user>@<host>`, as the operating system names them (a container may have no user name). */
function cliActor(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for this uid.
  }
  return `cli:${user}@${hostname()}`;
}

export async function openDatabaseSteps(
  env: NodeJS.ProcessEnv,
  configured: Config = loadConfig(env),
  operator: StepOperator = { reason: null },
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

  /** A step done, in the audit trail (its table exists once the migrations have run). */
  const recordStep = (action: string, after: AuditValue) =>
    auditRepository(db).append({
      actor: cliActor(),
      role: 'operator',
      action,
      target: null,
      outcome: 200,
      after,
      reason: operator.reason,
      clientAddress: null,
      requestId: null,
    });

  return {
    where: describeLocation(config.database),
    status,
    async migrateUp(options) {
      // The embedded database has one connection and one process: no lock to hold beside it.
      if (location.kind === 'pglite') options = { ...options, lockTimeoutMs: undefined };
      const done = [];
      for (const [component, list] of Object.entries(components))
        done.push({ component, applied: await migrateToLatest(db, component, list, options) });
      if (done.some(({ applied }) => applied.length > 0)) await recordStep('migrate up', done);
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
      const done = {
        rotation,
        borrowersSignedOut,
        identityProviderSessions: idp.sessions,
        identityProviderKeySets: idp.keySets,
      };
      await recordStep('after-restore', {
        activeKid: rotation.activeKid,
        retiredKids: rotation.retiredKids,
        borrowersSignedOut,
        identityProviderSessions: idp.sessions,
        identityProviderKeySets: idp.keySets,
      });
      return done;
    },
    close: () => db.destroy(),
  };
}
