import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// One instance's metrics, in a registry of its own (never prom-client's global one): two instances in
// one process (tests, a second instance) count apart. The parts report through small ports of their
// own (MailMetrics, the identity provider's IdpMetrics...); this module implements them.

/** Seconds: from a fast API answer to a slow password check. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The outbox's waiting messages and its oldest due one, read from the database at each scrape. */
export interface OutboxBacklog {
  pending: number;
  sending: number;
  /** Seconds the oldest due pending message has waited; 0 when none is due. */
  oldestDueSeconds: number;
}

/** The database pool's connections (PostgreSQL only). */
export interface PoolUsage {
  inUse: number;
  idle: number;
  waiting: number;
  max: number;
}

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];

  const httpRequests = new Counter({
    name: 'portal_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const sessionsStarted = new Counter({
    name: 'portal_sessions_started_total',
    help: 'Product sessions begun, by how the borrower signed in',
    labelNames: ['method'] as const,
    registers,
  });
  const signIns = new Counter({
    name: 'idp_sign_ins_total',
    help: "The bundled identity provider's sign-in attempts, by method and outcome",
    labelNames: ['method', 'outcome'] as const,
    registers,
  });
  const lockouts = new Counter({
    name: 'idp_lockouts_total',
    help: 'Lockouts begun: an account for one client network, or an account for password sign-in',
    labelNames: ['scope'] as const,
    registers,
  });
  const passwordCheckWait = new Histogram({
    name: 'idp_password_check_wait_seconds',
    help: 'Time a password check (argon2id) waited for a core',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const mailDeliveries = new Counter({
    name: 'portal_mail_deliveries_total',
    help: 'Mail delivery attempts, by kind of message and outcome (sent, failed: retried later, dead)',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const webhookDeliveries = new Counter({
    name: 'portal_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by event type and outcome (delivered, failed: retried later, dead: the endpoint turned off)',
    labelNames: ['type', 'outcome'] as const,
    registers,
  });
  const readinessGauge = new Gauge({
    name: 'portal_ready',
    help: 'Whether the last readiness check (/readyz) found the instance ready (1) or not (0)',
    registers,
  });
  const readinessChanges = new Counter({
    name: 'portal_readiness_changes_total',
    help: 'Times the readiness check answered differently from the time before',
    registers,
  });
  let lastReady: boolean | undefined;

  return {
    registry,
    /** One answered request; `route` is the route's template, never the requested URL. */
    request(method: string, route: string, status: number, seconds: number) {
      httpRequests.inc({ method, route, status: String(status) });
      httpDuration.observe({ method, route }, seconds);
    },
    sessionStarted: (method: string) => sessionsStarted.inc({ method }),
    /** The bundled identity provider's port (IdpMetrics). */
    idp: {
      signIn: (method: string, outcome: string) => signIns.inc({ method, outcome }),
      lockout: (scope: 'network' | 'account') => lockouts.inc({ scope }),
      passwordCheckWaited: (seconds: number) => passwordCheckWait.observe(seconds),
    },
    /** The mail worker's port (MailMetrics). */
    mail: {
      delivered: (kind: string, outcome: 'sent' | 'failed' | 'dead') => mailDeliveries.inc({ kind, outcome }),
    },
    /** The webhook worker's port (WebhookMetrics). */
    webhooks: {
      delivered: (type: string, outcome: 'delivered' | 'failed' | 'dead') =>
        webhookDeliveries.inc({ type, outcome }),
    },
    readiness(ready: boolean) {
      readinessGauge.set(ready ? 1 : 0);
      if (lastReady !== undefined && lastReady !== ready) readinessChanges.inc();
      lastReady = ready;
    },
    /** Process metrics (CPU, memory, event-loop lag, GC): only where metrics are served, they watch the process. */
    watchProcess() {
      collectDefaultMetrics({ register: registry });
    },
    watchPasswordQueue(depth: () => number) {
      new Gauge({
        name: 'idp_password_check_queue_depth',
        help: 'Password checks (argon2id) waiting for a core in this process',
        registers,
        collect() {
          this.set(depth());
        },
      });
    },
    watchOutbox(backlog: () => Promise<OutboxBacklog>) {
      // Both gauges come from one query per scrape; a scrape while the database is down keeps the last values.
      let last: { at: number; value: Promise<OutboxBacklog | undefined> } | undefined;
      const read = () => {
        if (!last || Date.now() - last.at > 1000)
          last = { at: Date.now(), value: backlog().catch(() => undefined) };
        return last.value;
      };
      new Gauge({
        name: 'portal_mail_outbox_messages',
        help: 'Messages in the outbox not yet delivered, by status (pending, sending)',
        labelNames: ['status'] as const,
        registers,
        async collect() {
          const now = await read();
          if (!now) return;
          this.set({ status: 'pending' }, now.pending);
          this.set({ status: 'sending' }, now.sending);
        },
      });
      new Gauge({
        name: 'portal_mail_outbox_oldest_due_seconds',
        help: 'How long the oldest due message in the outbox has waited to be sent',
        registers,
        async collect() {
          const now = await read();
          if (now) this.set(now.oldestDueSeconds);
        },
      });
    },
    watchNotificationListener(listening: () => boolean) {
      new Gauge({
        name: 'portal_notification_listener_up',
        help: "Whether this instance's LISTEN connection to PostgreSQL (revocations) is up (1) or not (0)",
        registers,
        collect() {
          this.set(listening() ? 1 : 0);
        },
      });
    },
    /** Statements sent to the database so far (a running count the database keeps). */
    watchStatements(sent: () => number) {
      let counted = 0;
      new Counter({
        name: 'portal_db_statements_total',
        help: 'Statements sent to the database (round trips, BEGIN and COMMIT included)',
        registers,
        collect() {
          const now = sent();
          this.inc(now - counted);
          counted = now;
        },
      });
    },
    watchPool(usage: () => PoolUsage | null) {
      const gauge = (name: string, help: string, read: (u: PoolUsage) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            const now = usage();
            if (now) this.set(read(now));
          },
        });
      gauge(
        'portal_db_pool_connections_in_use',
        'Database connections checked out of the pool',
        (u) => u.inUse,
      );
      gauge('portal_db_pool_connections_idle', 'Database connections idle in the pool', (u) => u.idle);
      gauge('portal_db_pool_waiting', 'Queries waiting for a database connection', (u) => u.waiting);
      gauge('portal_db_pool_connections_max', 'Most connections the pool opens', (u) => u.max);
    },
  };
}
