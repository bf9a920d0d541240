// The identity provider as a process of its own: `node apps/idp/dist/main.js` (see standalone.ts
// for what it reads from the environment).
import { readStandaloneConfig } from './standalone-config.js';

const read = readStandaloneConfig(process.env);
if ('problems' in read) {
  console.error(`The identity provider cannot start:\n${read.problems}`);
  process.exit(1);
}

// Loaded once the configuration is known to be good: a refusal is said at once.
const { startStandalone } = await import('./standalone.js');
const server = await startStandalone(read.config);
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
