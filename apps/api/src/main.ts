import cluster from 'node:cluster';
import { runServerProcesses } from './cluster.js';
import { loadConfig, ConfigError, type Config } from './config/config.js';
import { DEMO_BORROWER } from './demo-borrower.js';
import { startServer } from './server.js';

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
  printWelcome(config);
} else {
  const server = await startServer(config);
  if (cluster.isPrimary) printWelcome(config);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.app.log.info({ signal }, 'shutting down');
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          server.app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

function printWelcome(config: Config): void {
  if (config.production) return;
  const demo = config.seedDemoBorrower
    ? `\n  Demo borrower:  ${DEMO_BORROWER.login} / ${DEMO_BORROWER.password}`
    : '';
  const mailbox = config.mail.smtpUrl ? '' : `\n  E-mail sent:    ${config.publicUrl}/dev/mailbox`;
  console.log(
    `\n  customer-core is running.\n  Sign in at:     ${config.publicUrl}/auth/login${demo}${mailbox}` +
      `\n  Operators:      npm run cli -- help\n`,
  );
}
