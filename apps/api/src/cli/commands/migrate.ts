import type { SchemaStatus } from '@customer-core/database';
import { failure, usageError } from '../cli-error.js';
import { table, text, type Command } from '../command.js';

const DEFAULT_LOCK_TIMEOUT_SECONDS = 60;

export const migrate: Command = {
  name: 'migrate',
  summary: "Show the database schema's migrations, or apply the pending ones",
  help: `Usage: npm run cli -- migrate status
       npm run cli -- migrate up [--lock-timeout <seconds>]

A step on the portal's database itself, not a call to a running portal: run it where the portal
runs, with its settings (DATABASE_URL, or DATA_DIR for the embedded database; IDP_BUNDLED).

  status   Lists every migration: applied (and when), pending, or a later release's.
  up       Applies the pending migrations in one transaction, printing each as it runs. In
           production (MIGRATE_ON_START=false) this is the deploy step before the new release
           starts; an instance refuses to start while migrations are pending.

With the embedded database (no DATABASE_URL), stop the portal first: one process opens it at a time.

Options:
  --lock-timeout <seconds>   How long to wait for another migration of the same database to finish
                             (PostgreSQL), or for a table a migration changes to be free, before giving
                             up (default ${DEFAULT_LOCK_TIMEOUT_SECONDS})`,
  options: { 'lock-timeout': { type: 'string' } },
  positionals: ['status', 'up'],
  runsOn: 'database',
  async run(values, { positionals, print, database }) {
    const [action, ...extra] = positionals;
    if (action === undefined || !['status', 'up'].includes(action) || extra.length > 0)
      throw usageError('migrate takes status or up. See: npm run cli -- migrate --help');
    const lockTimeout = text(values, 'lock-timeout');
    if (lockTimeout !== undefined && action !== 'up')
      throw usageError('--lock-timeout is for migrate up. See: npm run cli -- migrate --help');
    const seconds = lockTimeout === undefined ? DEFAULT_LOCK_TIMEOUT_SECONDS : Number(lockTimeout);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600)
      throw usageError(
        `--lock-timeout must be a whole number of seconds from 1 to 3600 (not "${lockTimeout}").`,
      );

    const steps = await database();
    try {
      if (action === 'status') return printStatus(await steps.status(), steps.where, print);
      print(`Migrating ${steps.where}.`);
      const done = await steps.migrateUp({
        lockTimeoutMs: seconds * 1000,
        onProgress: ({ component, name, done, ms }) =>
          print(done ? `  done in ${ms} ms` : `Applying ${component} ${name}…`),
      });
      const applied = done.reduce((n, d) => n + d.applied.length, 0);
      print(
        applied === 0
          ? 'Nothing to apply: the schema is current.'
          : `Applied ${applied} migration${applied === 1 ? '' : 's'}. The schema is current.`,
      );
    } catch (error) {
      throw failure(`migrate ${action}: ${(error as Error).message}`);
    } finally {
      await steps.close();
    }
  },
};

function printStatus(statuses: SchemaStatus[], where: string, print: (line: string) => void) {
  print(`Schema of ${where}:`);
  const rows = statuses.flatMap((s) => [
    ...s.applied.map((m) => [s.component, m.name, `applied ${m.at.slice(0, 19).replace('T', ' ')}`]),
    ...s.pending.map((name) => [s.component, name, 'pending']),
    ...s.unknown.map((name) => [
      s.component,
      name,
      s.unknownContracts.includes(name) ? "a later release's (contract)" : "a later release's (expand)",
    ]),
  ]);
  for (const line of table(['COMPONENT', 'MIGRATION', 'STATE (UTC)'], rows)) print(line);
  print('');
  const pending = statuses.reduce((n, s) => n + s.pending.length, 0);
  print(
    pending === 0
      ? 'Current: nothing pending.'
      : `${pending} pending: apply them with npm run cli -- migrate up.`,
  );
}
