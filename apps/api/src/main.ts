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

const server = await startServer(config);

if (!config.production) {
  const demo = config.seedDemoBorrower
    ? `\n  Demo borrower:  ${DEMO_BORROWER.login} / ${DEMO_BORROWER.password}`
    : '';
  const mailbox = config.mail.smtpUrl ? '' : `\n  E-mail sent:    ${config.publicUrl}/dev/mailbox`;
  console.log(
    `\n  customer-core is running.\n  Sign in at:     ${config.publicUrl}/auth/login${demo}${mailbox}` +
      `\n  Operators:      npm run cli -- help\n`,
  );
}

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
