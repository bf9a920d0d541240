import cluster from 'node:cluster';
import { runServerProcesses } from './cluster.js';
import { loadConfig, ConfigError, type Config } from './config/config.js';
import { flushTraces } from './tracing/traces-on.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`customer-core cannot start.\n${error.message}`);
  process.exit(1);
}

if (config.serverProcesses > 1 && cluster.isPrimary) {
  await runServerProcesses(config, config.serverProcesses);
  await printWelcome(config);
} else {
  // Loaded here, not above: a primary that only supervises server processes holds none of the app.
  const { startServer } = await import('./server.js');
  const server = await startServer(config).catch(async (error: unknown) => {
    // A schema this release cannot serve, or a migration lock held too long: one line, no stack.
    const { SchemaMismatchError, MigrationLockTimeoutError } = await import('@customer-core/database');
    if (!(error instanceof SchemaMismatchError || error instanceof MigrationLockTimeoutError)) throw error;
    console.error(`customer-core cannot start: ${error.message}`);
    process.exit(1);
  });
  if (cluster.isPrimary) await printWelcome(config);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.app.log.info({ signal }, 'shutting down');
      server
        .close()
        .then(flushTraces)
        .then(
          () => process.exit(0),
          (error: unknown) => {
            server.app.log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }
}

async function printWelcome(config: Config): Promise<void> {
  if (config.production) return;
  // Its module brings the loan book with it: not loaded where the welcome is not printed.
  const { DEMO_BORROWER } = await import('./loans/demo-borrower.js');
  const demo = config.seedDemoBorrower
    ? `\n  Demo borrower:  ${DEMO_BORROWER.login} / ${DEMO_BORROWER.password}`
    : '';
  const mailbox = config.mail.smtpUrl ? '' : `\n  E-mail sent:    ${config.publicUrl}/dev/mailbox`;
  console.log(
    `\n  customer-core is running.\n  Sign in at:     ${config.publicUrl}/auth/login${demo}${mailbox}` +
      `\n  Operators:      npm run cli -- help\n`,
  );
}
