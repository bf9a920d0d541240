import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { describeLocation, openDatabase, prepareDatabase } from '@customer-core/database';
import { buildApp, type Portal, type ServerOptions } from './app.js';
import type { Config } from './config/config.js';
import { withEmbeddedOperatorCredential } from './config/operator-credential.js';
import type { ApiDatabase } from './db/schema.js';
import { borrowerRepository } from './borrowers/borrower-repository.js';
import { seedDemoBorrower } from './loans/demo-borrower.js';
import { loanRepository } from './loans/loan-repository.js';
import { startMetricsServer, type MetricsServer } from './metrics/metrics-server.js';
import { prepareSchema } from './db/schema-check.js';
import { componentMigrations } from './services.js';
import { startMaintenance } from './maintenance/maintenance.js';
import { purgeRepository } from './maintenance/purge-repository.js';
import { signingKeyRetirementSeconds } from './session/signing-keys.js';

export interface RunningServer extends Portal {
  app: FastifyInstance;
  db: Kysely<ApiDatabase>;
  /** The address it listens on, e.g. http://127.0.0.1:8080 */
  address: string;
  /** Where Prometheus scrapes its metrics (METRICS_PORT), e.g. http://127.0.0.1:9464; null: not served. */
  metricsAddress: string | null;
  close(): Promise<void>;
}

/**
 * Opens the database and migrates it (MIGRATE_ON_START) or checks that this release can serve its schema,
 * composes the app, seeds the demo borrower where allowed, and listens.
 */
export async function startServer(configured: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const config = withEmbeddedOperatorCredential(configured);
  let log: FastifyBaseLogger | undefined;
  await prepareDatabase(config.database);
  const db = openDatabase<ApiDatabase>(config.database, (err) =>
    log?.warn(
      // Not the error object itself: pg attaches the whole client to it.
      { err: { type: err.name, message: err.message, code: (err as { code?: string }).code } },
      'PostgreSQL dropped a connection; the next query opens a new one',
    ),
  );
  const migrations = componentMigrations(config);
  try {
    const { laterExpandSteps } = await prepareSchema(db as Kysely<unknown>, migrations, {
      migrateOnStart: config.migrateOnStart,
      location: config.database,
    });
    const portal = await buildApp(config, db, migrations, options);
    log = portal.app.log;
    portal.app.log.info({ database: describeLocation(config.database) }, 'database ready');
    if (laterExpandSteps.length > 0)
      log.warn(
        { migrations: laterExpandSteps },
        "the database has a later release's migrations; they only add, so this release runs on it",
      );
    if (config.operatorCredentialFile)
      log.info({ file: config.operatorCredentialFile }, 'operators use the embedded credential in this file');
    if (config.seedDemoBorrower && portal.identityProvider && config.bundledIdp)
      await seedDemoBorrower(
        portal.identityProvider,
        { borrowers: borrowerRepository(db), loans: loanRepository(db) },
        {
          issuer: config.bundledIdp.issuer,
          lender: config.lender,
        },
      );
    const stopMaintenance = startMaintenance(purgeRepository(db), portal.app.log, {
      signingKeyRetirementSeconds: signingKeyRetirementSeconds(config),
      sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
      auditRetentionDays: config.auditRetentionDays,
    });
    let address: string;
    let metricsServer: MetricsServer | undefined;
    const connections = openConnections(portal.app);
    try {
      address = await portal.app.listen({ port: config.port, host: config.host });
      metricsServer = config.metrics
        ? await startMetricsServer(portal.metrics.registry, config.metrics, (err) =>
            portal.app.log.error({ err }, 'metrics could not be collected'),
          )
        : undefined;
    } catch (error) {
      // A port taken, say: nothing of this instance may keep running (its maintenance, its app).
      stopMaintenance();
      await portal.app.close();
      throw error;
    }
    portal.mail.start();
    portal.webhookDeliveries.start();
    portal.paymentRuns?.start();
    let closing: Promise<void> | undefined;
    return {
      ...portal,
      db,
      address,
      metricsAddress: metricsServer?.address ?? null,
      close: () =>
        (closing ??= (async () => {
          stopMaintenance();
          await metricsServer?.close();
          await drain(portal.app, connections);
          await portal.mail.stop(); // after the requests that might enqueue; a delivery in flight finishes
          await portal.webhookDeliveries.stop();
          await portal.paymentRuns?.stop();
          await db.destroy();
        })()),
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** How long requests in flight may take to finish once shutdown starts. */
const SHUTDOWN_GRACE_MS = 10_000;

/** The connections open on the app's server, from before it listens. */
function openConnections(app: FastifyInstance): Set<Socket> {
  const open = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return open;
}

/**
 * Stops accepting, lets requests in flight finish, then ends. A keep-alive connection whose last
 * request finishes after shutdown began would otherwise sit idle until its keep-alive timeout, so idle
 * connections are swept while draining, and whatever is left after the grace period is cut. Connections
 * that never carried a byte are swept too: browsers and proxies open them ahead of need, node's sweep
 * counts them as neither idle nor busy, and one of them held a shutdown for the whole grace period.
 */
async function drain(app: FastifyInstance, connections: Set<Socket>): Promise<void> {
  const closed = app.close();
  const sweep = setInterval(() => {
    app.server.closeIdleConnections();
    for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
  }, 100);
  const cutOff = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(cutOff);
  }
}
