import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import type { Config } from './config/config.js';
import { processLogger } from './http/logging.js';

/**
 * Runs `count` server processes sharing the port (node:cluster), for a machine with several cores.
 *
 * Each process is an instance like any other behind a load balancer: what one instance keeps in memory
 * (verified tokens, revocations, signing keys) the others learn through PostgreSQL, as separate
 * machines do. The first process starts alone, so migrations and seeding run once; the rest follow.
 * A process that dies is replaced; SIGTERM and SIGINT are passed on, and the primary ends last.
 */
export async function runServerProcesses(config: Config, count: number): Promise<void> {
  const log = processLogger(config.logLevel, config.logFormat);
  let stopping = false;

  const start = async (): Promise<Worker> => {
    const worker = cluster.fork();
    const [event] = (await Promise.race([
      once(worker, 'listening').then(() => ['listening']),
      once(worker, 'exit').then(() => ['exit']),
    ])) as ['listening' | 'exit'];
    if (event === 'exit') throw new Error(`server process ${worker.process.pid} ended while starting`);
    return worker;
  };
  const keep = (worker: Worker) =>
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      log.error({ worker: worker.process.pid, code, signal }, 'server process ended; starting another');
      start().then(keep, (error: unknown) => {
        log.fatal({ err: error }, 'could not replace a server process');
        process.exit(1);
      });
    });

  try {
    keep(await start());
    for (const worker of await Promise.all(Array.from({ length: count - 1 }, start))) keep(worker);
  } catch (error) {
    log.fatal({ err: error }, 'server processes could not start');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(1);
  }
  log.info({ processes: count }, 'server processes listening');

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      for (const worker of workers) worker.process.kill(signal);
      const exits = workers.filter((w) => !w.isDead()).map((w) => once(w, 'exit'));
      void Promise.all(exits).then(() => process.exit(0));
    });
  }
}
