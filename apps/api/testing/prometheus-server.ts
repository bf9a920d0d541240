import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

export interface RunningPrometheus {
  /** Its HTTP API, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Resolves once Prometheus has fetched the target's metrics `count` times in all. */
  scrapes(count: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real Prometheus (PROMETHEUS_PATH, which the test command provides) scraping `metricsAddress`
 * every 200 ms, with these rule files, its storage in a temporary folder. Its scrapes pass through a
 * relay of the test's, which counts them: a test waits for a scrape, not for time to pass.
 */
export async function startPrometheus(
  metricsAddress: string,
  ruleFiles: string[] = [],
): Promise<RunningPrometheus> {
  const binary = process.env.PROMETHEUS_PATH;
  if (!binary) throw new Error('PROMETHEUS_PATH is not set: run the tests with scripts/run-tests.mjs');
  let scraped = 0;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const relay = createServer((request, response) => {
    void fetch(`${metricsAddress}${request.url}`).then(async (answer) => {
      const body = await answer.text();
      response.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'text/plain',
      });
      response.end(body, () => {
        scraped += 1;
        for (const waiter of waiting.filter((w) => w.count <= scraped)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve();
        }
      });
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const relayPort = (relay.address() as AddressInfo).port;

  const dir = await mkdtemp(path.join(tmpdir(), 'prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  await writeFile(
    config,
    JSON.stringify({
      global: { scrape_interval: '200ms', evaluation_interval: '200ms' },
      rule_files: ruleFiles,
      scrape_configs: [{ job_name: 'portal', static_configs: [{ targets: [`127.0.0.1:${relayPort}`] }] }],
    }),
  );
  const port = await freePort();
  const child = spawn(
    binary,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=info',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server is ready to receive web requests')) resolve();
    });
    void exited.then(() => reject(new Error(`prometheus ended while starting:\n${log.slice(-2000)}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    scrapes: (count) =>
      count <= scraped ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    async close() {
      child.kill('SIGTERM');
      await exited;
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      relay.closeAllConnections();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
